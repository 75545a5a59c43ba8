import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { exportJWK, generateKeyPair } from "jose";
import path from "node:path";
import { defineConfig, type ViteUserConfig } from "vitest/config";
import { buildDocsUi } from "./scripts/build-docs-ui";

// Tests get their own throwaway signing key, generated per run, never stored.
async function testSigningKey(): Promise<string> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = await exportJWK(privateKey);
  return JSON.stringify({ ...jwk, kid: "test-key-1", alg: "RS256", use: "sig" });
}

export default defineConfig(async (): Promise<ViteUserConfig> => {
  buildDocsUi(__dirname); // wrangler.toml's [assets] directory must exist before the Worker starts
  const migrations = await readD1Migrations(path.join(__dirname, "migrations"));
  const signingKey = await testSigningKey();
  return {
    test: {
      silent: "passed-only" as const,
      testTimeout: 30_000,
      hookTimeout: 60_000,
      projects: [
        {
          extends: true,
          plugins: [
            cloudflareTest({
              // The test entry serves src/index.ts plus test-only fault injection (test/support/worker.ts).
              main: "./test/support/worker.ts",
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  JWT_PRIVATE_KEY: signingKey,
                  // Generous limits so that no test is throttled by accident; the rate-limit tests set tight
                  // limits per request (X-Test-Vars) on their own clients.
                  RATE_LIMIT_PER_MINUTE: "100000",
                  RATE_LIMIT_BURST: "100000",
                  TOKEN_RATE_LIMIT_PER_MINUTE: "100000",
                  TOKEN_RATE_LIMIT_BURST: "100000",
                },
              },
            }),
          ],
          test: {
            name: "workers",
            setupFiles: ["./test/setup/apply-migrations.ts"],
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
