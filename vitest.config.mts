import { availableParallelism } from "node:os";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { exportJWK, generateKeyPair } from "jose";
import { defineConfig, type ViteUserConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { docsWorkerOptions } from "./scripts/dev/local-platform.ts";
import { buildDocsUi } from "./scripts/portal/build-docs-ui.ts";
import { certificatePem, createSelfSignedIdentity, privateKeyPem } from "./src/operator/edi/as2/certificates.ts";
import type { SigningIdentity } from "./src/operator/edi/as2/cms.ts";
import { buildMdn } from "./src/operator/edi/as2/mdn.ts";
import { openMessage } from "./src/operator/edi/as2/message.ts";
import { buildEntity, parseEntity } from "./src/operator/edi/as2/mime.ts";

// Tests get their own throwaway signing key, generated per run, never stored.
async function testSigningKey(): Promise<string> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = await exportJWK(privateKey);
  return JSON.stringify({ ...jwk, kid: "test-key-1", alg: "RS256", use: "sig" });
}

/**
 * workerd reports the alarm races that the Durable Object clock tests provoke on purpose as "NOSENTRY ..."
 * diagnostics (not errors), and the plugin forwards them to stderr; it already drops other messages of the kind.
 */
function dropWorkerdDiagnostics(): void {
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) =>
    typeof chunk === "string" && chunk.startsWith("NOSENTRY ") ? true : write(chunk, ...rest)) as typeof process.stderr.write;
}

/**
 * The only outbound host of the tests: https://receiver.example.com, a webhook receiver run here in Node. It records each
 * request and answers by the first path segment: /ok/... 200, /fail/... 500, /flaky/... 503 the first time an event id
 * arrives and 200 after, /hang/... 200 only once GET /__release?path=/hang/x is called (recorded when it arrives),
 * /cxml-refuse/... HTTP 200 with a cXML Status 406.
 * GET /__received?path=/ok/x lists what arrived there (test/helpers/webhooks.ts). Any other host is refused.
 */
function webhookReceiver(as2: TestAs2) {
  const received: {
    path: string;
    headers: Record<string, string>;
    body: string;
    status: number;
    mdn?: { headers: Record<string, string>; body: string };
  }[] = [];
  const seen = new Set<string>();
  const hanging = new Map<string, (() => void)[]>();
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (url.hostname !== "receiver.example.com") return new Response(`no network in tests (${url.hostname})`, { status: 502 });
    if (url.pathname === "/__received") return Response.json(received.filter((r) => r.path === url.searchParams.get("path")));
    if (url.pathname.startsWith("/as2-partner/")) {
      const answer = await as2PartnerAnswer(request, as2);
      const asynchronous = url.pathname.startsWith("/as2-partner/async/") && request.headers.has("Receipt-Delivery-Option");
      received.push({
        path: url.pathname,
        headers: Object.fromEntries(request.headers),
        body: answer.content,
        status: 200,
        // What an asynchronous partner posts to the Receipt-Delivery-Option URL later: the test posts it.
        ...(asynchronous
          ? {
              mdn: {
                headers: Object.fromEntries(answer.response.headers),
                body: Buffer.from(await answer.response.arrayBuffer()).toString("base64"),
              },
            }
          : {}),
      });
      return asynchronous ? new Response(null, { status: 200 }) : answer.response;
    }
    if (url.pathname === "/__release") {
      const path = url.searchParams.get("path") ?? "";
      for (const release of hanging.get(path) ?? []) release();
      hanging.delete(path);
      return new Response("released");
    }
    const body = await request.text();
    if (url.pathname.startsWith("/hang/")) {
      received.push({ path: url.pathname, headers: Object.fromEntries(request.headers), body, status: 200 });
      await new Promise<void>((resolve) => hanging.set(url.pathname, [...(hanging.get(url.pathname) ?? []), resolve]));
      return new Response("ok");
    }
    const eventId = request.headers.get("Medparts-Event-Id") ?? "";
    const kind = url.pathname.split("/")[1];
    if (kind === "cxml-refuse") {
      // A cXML receiver that refuses every document the way cXML does: HTTP 200, Status 406.
      received.push({ path: url.pathname, headers: Object.fromEntries(request.headers), body, status: 200 });
      return new Response('<?xml version="1.0"?><cXML><Response><Status code="406" text="Not Acceptable">No.</Status></Response></cXML>', {
        headers: { "Content-Type": "text/xml" },
      });
    }
    const status = kind === "ok" ? 200 : kind === "flaky" ? (seen.has(eventId) ? 200 : 503) : 500;
    seen.add(eventId);
    received.push({ path: url.pathname, headers: Object.fromEntries(request.headers), body, status });
    return new Response(status === 200 ? "ok" : "not now", { status });
  };
}

interface TestAs2 {
  ours: SigningIdentity;
  partner: SigningIdentity;
}

/**
 * An AS2 trading partner's server (receiver.example.com/as2-partner/...): it opens our message with its key and our
 * certificate, and answers a signed MDN, `processed` with the MIC it computed, or under /as2-partner/refuse/ a
 * `processed/error: decryption-failed`; under /as2-partner/async/, asked for an asynchronous MDN, it answers an empty
 * 200 and records the MDN (base64) with the request, for the test to post to POST /as2. What it opened is recorded as the request's body (GET /__received).
 */
async function as2PartnerAnswer(request: Request, as2: TestAs2): Promise<{ content: string; response: Response }> {
  const entity = buildEntity([["Content-Type", request.headers.get("Content-Type") ?? ""]], new Uint8Array(await request.arrayBuffer()));
  const opened = await openMessage(entity, {
    recipient: as2.partner,
    partnerCertificate: as2.ours.certificate,
    requireEncryption: true,
    requireSignature: true,
    micAlgorithm: "sha-256",
  });
  const refuse = new URL(request.url).pathname.startsWith("/as2-partner/refuse/");
  const mdn = parseEntity(
    await buildMdn({
      ourAs2Name: request.headers.get("AS2-To") ?? "",
      originalMessageId: request.headers.get("Message-ID") ?? "",
      outcome: refuse
        ? { processed: false, failure: "decryption-failed", explanation: "refused by the test partner" }
        : { processed: true },
      mic: opened.mic,
      signer: as2.partner,
    }),
  );
  return {
    content: new TextDecoder().decode(opened.content),
    response: new Response(mdn.body, { headers: Object.fromEntries(mdn.headers.fields) }),
  };
}

/**
 * vitest's order (longest or largest file first) within each project, but the Workers project before the Node one:
 * its workers take seconds to start and its files are most of the suite's time, so the Node files, short and many,
 * fill the gaps at the end instead of holding both cores while workerd starts.
 */
class WorkersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const inWorkerd = (file: TestSpecification) => file.project.name === "workers";
    return [...sorted.filter(inWorkerd), ...sorted.filter((file) => !inWorkerd(file))];
  }
}

export default defineConfig(async (): Promise<ViteUserConfig> => {
  const root = import.meta.dirname;
  dropWorkerdDiagnostics();
  buildDocsUi(root); // the docs Worker's assets directory must exist before it starts
  const migrations = await readD1Migrations(path.join(root, "migrations"));
  const catalogMigrations = await readD1Migrations(path.join(root, "catalog-migrations"));
  // The test key is bound below, over whatever wrangler reads (a developer's .dev.vars). wrangler.toml declares
  // JWT_PRIVATE_KEY a required secret; without a .dev.vars wrangler looks in process.env and warns when absent.
  const signingKey = await testSigningKey();
  // Medparts' AS2 identity in tests: generated per run like the signing key (docs/as2.md, "Our identity").
  const as2 = await createSelfSignedIdentity("Medparts AS2 (tests)");
  // A trading partner's, for the simulated partner server (as2PartnerAnswer) and the tests that send as it.
  const as2Partner = await createSelfSignedIdentity("Test partner AS2");
  process.env.JWT_PRIVATE_KEY = signingKey;
  process.env.WEBHOOK_SECRET_KEY = "test-webhook-secret-key-not-for-production";
  process.env.QUOTE_SIGNING_KEY = "test-quote-signing-key-not-for-production";
  // Wrangler only parses wrangler.toml here; its informational lines ("Using secrets defined in process.env")
  // are not test output. Warnings and errors still show.
  process.env.WRANGLER_LOG ??= "warn";
  return {
    test: {
      silent: "passed-only" as const,
      sequence: { sequencer: WorkersFirst },
      // Every core: each vitest worker is a workerd of its own with its own databases. vitest's default leaves
      // one core idle (availableParallelism - 1), which on a 2-core machine is half of it.
      maxWorkers: availableParallelism(),
      // Modules transformed once are kept in node_modules/.experimental-vitest-cache, keyed by their content: a later run
      // transforms only what changed (transform 10.9 -> 2.7 s summed over a run of 23 files).
      experimental: { fsModuleCache: true },
      // Property and fuzz counts (test/helpers/depth.ts): quick in `npm test`, long in `npm run test:deep`.
      provide: { testDepth: process.env.MEDPARTS_TEST_DEPTH === "deep" ? "deep" : "quick" },
      testTimeout: 30_000,
      hookTimeout: 60_000,
      projects: [
        {
          extends: true,
          plugins: [
            cloudflareTest({
              // The test entry serves src/api/index.ts plus test-only fault injection (test/helpers/worker.ts).
              main: "./test/helpers/worker.ts",
              // workerd's own diagnostics (aborted pipes, overdue alarms in the clock tests) are not test output.
              verbose: false,
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                // The /docs Worker behind the API Worker's DOCS binding, as in production.
                // The operator plane's Worker stands behind ADMIN in production; here the test Worker serves /admin/api
                // itself (test/helpers/worker.ts), and this stand-in only satisfies the binding.
                workers: [
                  await docsWorkerOptions(root),
                  {
                    name: "medparts-admin",
                    modules: true,
                    script: 'export default { fetch: () => new Response("served by the test Worker", { status: 500 }) };',
                  },
                ],
                outboundService: webhookReceiver({ ours: as2, partner: as2Partner }),
                // A consumer's batch handed over at once rather than after wrangler.toml's 1 s wait for it to fill
                // (miniflare merges these with wrangler.toml's consumers): tests wait for deliveries and sandbox steps
                // in real time, and batching is not what they check.
                queueConsumers: {
                  "medparts-events": { maxBatchTimeout: 0 },
                  "medparts-sandbox": { maxBatchTimeout: 0 },
                  "medparts-events-dlq": { maxBatchTimeout: 0 },
                },
                // The operator plane's bindings (admin/wrangler.toml), served by the same test Worker.
                r2Buckets: ["IMPORTS"],
                workflows: {
                  CATALOG_IMPORTS: { name: "medparts-catalog-import", className: "CatalogImportWorkflow" },
                },
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  TEST_CATALOG_MIGRATIONS: catalogMigrations,
                  JWT_PRIVATE_KEY: signingKey,
                  AS2_PRIVATE_KEY: privateKeyPem(as2),
                  AS2_CERTIFICATE: certificatePem(as2.certificate),
                  TEST_AS2_PARTNER_KEY: privateKeyPem(as2Partner),
                  TEST_AS2_PARTNER_CERTIFICATE: certificatePem(as2Partner.certificate),
                  WEBHOOK_SECRET_KEY: "test-webhook-secret-key-not-for-production",
                  QUOTE_SIGNING_KEY: "test-quote-signing-key-not-for-production",
                  // As in production, whatever a developer's .dev.vars allows for local receivers.
                  ALLOW_LOCAL_WEBHOOKS: "false",
                  // Every search rereads the catalog version, so a test that changes the catalog sees it at once.
                  CATALOG_VERSION_CACHE_SECONDS: "0",
                  // Test files recreate the database with the same ids: nothing granted is remembered across them.
                  ACCESS_CACHE_SECONDS: "0",
                  USER_PROFILE_CACHE_SECONDS: "0",
                  // Generous limits so that no test is throttled by accident; the rate-limit tests set tight
                  // limits per request (X-Test-Vars) on their own clients.
                  RATE_LIMIT_PER_MINUTE: "100000",
                  RATE_LIMIT_BURST: "100000",
                  TOKEN_RATE_LIMIT_PER_MINUTE: "100000",
                  TOKEN_RATE_LIMIT_BURST: "100000",
                  // A SCIM token's bucket too: the contract fuzzer sends hundreds of SCIM requests with one token, and
                  // on a quick run drained its 300-request burst (a 429 for a valid request).
                  SCIM_RATE_LIMIT_PER_MINUTE: "100000",
                  SCIM_RATE_LIMIT_BURST: "100000",
                  // The sandbox's default schedule, quicker than a developer's (2 s in wrangler.toml).
                  SANDBOX_STEP_SECONDS: "1",
                  // Half wrangler.toml's 8 shards a vendor's projection: every list asks each shard, and the code reads the
                  // count from here (test/vendors/projection-shards.test.ts holds it for any count above 1).
                  VENDOR_PROJECTION_SHARDS: "4",
                },
              },
            }),
          ],
          test: {
            name: "workers",
            isolate: false,
            setupFiles: ["./test/setup/logs-of-failed-tests.ts", "./test/setup/apply-migrations.ts"],
            include: ["test/**/*.test.ts"],
            exclude: ["test/**/*.node.test.ts", "test/e2e/**"],
          },
        },
        {
          // Tools that need Node (file system, code generation), e.g. the OpenAPI 3.1 schema validator.
          extends: true,
          test: { name: "node", environment: "node" as const, include: ["test/**/*.node.test.ts"] },
        },
      ],
    },
  };
});
