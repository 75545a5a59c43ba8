import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { cliArgs } from "../cli";
import { ADMIN_WRANGLER_CONFIG, DOCS_WRANGLER_CONFIG, wrangler } from "../dev/local-platform";

cliArgs(
  "check:bundle",
  "Builds each Worker as wrangler deploy would (dry run) and checks the API Worker's gzip size against its budget.",
  {},
);

/**
 * `npm run check:bundle`: builds the deploy bundle exactly as `wrangler deploy` would (--dry-run, nothing
 * is uploaded) and fails when its gzipped size exceeds the budget. The budget and why: docs/benchmarks.md.
 * The /docs Worker (assets only) and the operator plane's Worker are dry-run deployed too, so that every part of a
 * deploy is known to build; the operator plane's size is printed (it is off the buyer path: no budget of its own
 * beyond the platform's Worker size limit).
 */
export const GZIP_BUDGET_BYTES = 268 * 1024;

const outdir = mkdtempSync(path.join(tmpdir(), "medparts-bundle-"));
try {
  wrangler(["deploy", "--dry-run", "--outdir", outdir]);
  const bundle = readFileSync(path.join(outdir, "index.js"));
  const gzipped = gzipSync(bundle, { level: 9 }).byteLength;
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  const line = `deploy bundle: ${kib(bundle.byteLength)}, gzip ${kib(gzipped)} (budget ${kib(GZIP_BUDGET_BYTES)})`;
  if (gzipped > GZIP_BUDGET_BYTES) {
    console.error(`${line}: over budget`);
    process.exitCode = 1;
  } else {
    console.log(line);
  }
  wrangler(["deploy", "--dry-run", "-c", DOCS_WRANGLER_CONFIG]);
  console.log(`docs Worker (${DOCS_WRANGLER_CONFIG}): dry-run deploy ok`);
  const adminOut = path.join(outdir, "admin");
  wrangler(["deploy", "--dry-run", "-c", ADMIN_WRANGLER_CONFIG, "--outdir", adminOut]);
  const admin = readFileSync(path.join(adminOut, "index.js"));
  console.log(`operator plane (${ADMIN_WRANGLER_CONFIG}): ${kib(admin.byteLength)}, gzip ${kib(gzipSync(admin, { level: 9 }).byteLength)}`);
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
