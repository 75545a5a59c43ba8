import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { cliArgs, UserError } from "../cli";

/**
 * `npm run sdk:test`: the integrator kit against a running deployment, as CI runs it (.ci/run). It starts `npm start`
 * on a free port (or uses --url), then: the TypeScript SDK's types regenerated and compared with the committed ones,
 * its build and type check, its unit and live tests, its example; the Python SDK's unit and live tests and its example;
 * the CLI's `trigger` and `logs tail`. The live tests use `npm start`'s demo clients (.medparts-demo.json): the
 * test-mode buyer and the demo vendor.
 */
const { values } = cliArgs(
  "sdk:test",
  "Tests both SDKs, their examples and the CLI against npm start (started on a free port unless --url names a running one).",
  { url: { type: "string", help: "a running deployment to test against instead (its .medparts-demo.json must be here)", value: "<base>" } },
);

const samplesModule = await import("./samples");
const ROOT = path.resolve(import.meta.dirname, "../..");
const TS_SDK = path.join(ROOT, "sdks/typescript");
const PY_SDK = path.join(ROOT, "sdks/python");
const failures: string[] = [];

function run(title: string, command: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): string {
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
  if (result.status === 0) console.log(`ok    ${title} (${seconds} s)`);
  else {
    failures.push(title);
    console.log(`FAIL  ${title} (${seconds} s, exit ${result.status})\n${output.slice(-6000)}`);
  }
  return output;
}

function expectIn(title: string, output: string, pattern: RegExp): void {
  if (pattern.test(output)) console.log(`ok    ${title}`);
  else {
    failures.push(title);
    console.log(`FAIL  ${title}: no ${pattern} in\n${output.slice(-3000)}`);
  }
}

/**
 * The portal's SDK samples (./samples.ts): every TypeScript one type-checked against the SDK, every Python one called on
 * a client whose transport answers `{}` (the arguments bind to the method, nothing is sent).
 */
function checkSamples(): void {
  const { sdkSamples } = samplesModule;
  const document = JSON.parse(readFileSync(path.join(ROOT, "sdks/openapi.json"), "utf8"));
  const samples = Object.entries(sdkSamples(document));
  const dir = mkdtempSync(path.join(TS_SDK, ".samples-"));
  try {
    const typescript = [
      'import type { Medparts } from "@medparts/sdk";',
      "declare const medparts: Medparts;",
      "declare const fileBytes: Uint8Array;",
      ...samples.map(([name, sample], i) => `// ${name}\nexport async function sample${i}() {\n${sample.typescript}\nreturn data;\n}`),
    ].join("\n");
    writeFileSync(path.join(dir, "samples.ts"), typescript);
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({ extends: "../tsconfig.json", compilerOptions: { noEmit: true, rootDir: ".." }, include: ["samples.ts"] }),
    );
    run(`TypeScript SDK: the portal's ${samples.length} samples type-check`, path.join(TS_SDK, "node_modules/.bin/tsc"), ["-p", dir]);
    const python = [
      "from medparts import Medparts",
      "class Offline(Medparts):",
      "    def request(self, *args, **kwargs):",
      "        return {}",
      'client = Offline("mpc_test_x", "secret")',
      'file_bytes = b"sku,price"',
      ...samples.map(([name, sample]) => `# ${name}\n${sample.python}`),
      `print("${samples.length} samples ran")`,
    ].join("\n");
    writeFileSync(path.join(dir, "samples.py"), python);
    run(`Python SDK: the portal's ${samples.length} samples call their methods`, "python3", [path.join(dir, "samples.py")], {
      env: { PYTHONPATH: PY_SDK },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `npm start` on a free port, once it prints its banner (migrations, demo data and clients ready). */
async function startLocal(): Promise<{ url: string; stop: () => void }> {
  const { freePort } = await import("../bench/server");
  const port = await freePort();
  const child: ChildProcess = spawn("npm", ["start"], { cwd: ROOT, env: { ...process.env, PORT: String(port) }, detached: true });
  const stop = () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // Already gone.
    }
  };
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new UserError(`npm start printed no banner in 240 s:\n${output.slice(-3000)}`)), 240_000);
    const look = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Medparts is running")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", look);
    child.stderr?.on("data", look);
    child.once("exit", (code) => reject(new UserError(`npm start exited (${code}) before it was ready:\n${output.slice(-3000)}`)));
  }).catch((error: unknown) => {
    stop();
    throw error;
  });
  return { url: `http://localhost:${port}`, stop };
}

// The TypeScript SDK's own dependencies (its lockfile), its types against the committed document, its build.
if (!existsSync(path.join(TS_SDK, "node_modules/openapi-fetch")))
  run("TypeScript SDK: npm ci", "npm", ["ci", "--no-audit", "--no-fund"], { cwd: TS_SDK });
const scratch = mkdtempSync(path.join(tmpdir(), "medparts-sdk-"));
run(
  "TypeScript SDK: types regenerated from sdks/openapi.json",
  process.execPath,
  ["scripts/generate.mjs", path.join(ROOT, "sdks/openapi.json"), path.join(scratch, "schema.ts")],
  { cwd: TS_SDK },
);
if (readFileSync(path.join(scratch, "schema.ts"), "utf8") === readFileSync(path.join(TS_SDK, "src/schema.ts"), "utf8")) {
  console.log("ok    TypeScript SDK: src/schema.ts is what openapi-typescript makes of sdks/openapi.json");
} else {
  failures.push("TypeScript SDK drift");
  console.log("FAIL  TypeScript SDK: src/schema.ts differs from sdks/openapi.json's types: run npm run sdk:generate");
}
rmSync(scratch, { recursive: true, force: true });
run("TypeScript SDK: build", "npm", ["run", "build"], { cwd: TS_SDK });
run("TypeScript SDK: type check (tests, examples, README)", "npm", ["run", "typecheck"], { cwd: TS_SDK });
run("TypeScript SDK: unit tests", "npm", ["test"], { cwd: TS_SDK });
checkSamples();
run("Python SDK: unit tests", "python3", ["-m", "unittest", "discover", "-s", "tests", "-p", "test_unit.py"], {
  cwd: PY_SDK,
  env: { MEDPARTS_REPO: ROOT },
});

const local = values.url ? { url: values.url.replace(/\/+$/, ""), stop: () => {} } : await startLocal();
try {
  console.log(`against ${local.url}`);
  const demo = JSON.parse(readFileSync(path.join(ROOT, ".medparts-demo.json"), "utf8")) as {
    testMode: { clientId: string; clientSecret: string };
    vendor: { clientId: string; clientSecret: string };
  };
  const env = {
    MEDPARTS_URL: local.url,
    MEDPARTS_CLIENT_ID: demo.testMode.clientId,
    MEDPARTS_CLIENT_SECRET: demo.testMode.clientSecret,
    MEDPARTS_VENDOR_CLIENT_ID: demo.vendor.clientId,
    MEDPARTS_VENDOR_CLIENT_SECRET: demo.vendor.clientSecret,
  };
  run("TypeScript SDK: live tests", "npm", ["run", "test:live"], { cwd: TS_SDK, env });
  expectIn(
    "TypeScript SDK: example places a test order",
    run("TypeScript SDK: example", "npm", ["run", "example"], { cwd: TS_SDK, env }),
    /Ordered ORD-/,
  );
  run("Python SDK: live tests", "python3", ["-m", "unittest", "discover", "-s", "tests", "-p", "test_live.py"], { cwd: PY_SDK, env });
  expectIn(
    "Python SDK: example places a test order",
    run("Python SDK: example", "python3", ["examples/place_order.py"], { cwd: PY_SDK, env: { ...env, PYTHONPATH: PY_SDK } }),
    /ORD-\S+ \d+\.\d{2} USD/,
  );
  const cli = (args: string[]) =>
    run(`CLI: medparts ${args.join(" ")}`, "npm", ["run", "-s", "medparts", "--", ...args, "--url", local.url]);
  expectIn(
    "CLI: trigger order.shipped shows the verified delivery",
    cli(["trigger", "order.shipped"]),
    /order\.shipped delivered to .*signature verified/,
  );
  expectIn(
    "CLI: trigger of a type no scenario makes sends the sample",
    cli(["trigger", "repair.returned"]),
    /sample repair\.returned delivered/,
  );
  expectIn(
    "CLI: logs tail shows the requests just made",
    cli(["logs", "tail", "--no-follow", "--last", "20"]),
    /POST\s+201\s+\d+ms\s+\/customer\/api\/orders/,
  );
} finally {
  local.stop();
}

if (failures.length > 0) {
  console.error(`\n${failures.length} failed: ${failures.join("; ")}`);
  process.exit(1);
}
console.log("\nThe integrator kit passed against the running deployment.");
