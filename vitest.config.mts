import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { exportJWK, generateKeyPair } from "jose";
import path from "node:path";
import { defineConfig } from "vitest/config";

// Tests get their own throwaway signing key, generated per run, never stored.
async function testSigningKey(): Promise<string> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = await exportJWK(privateKey);
  return JSON.stringify({ ...jwk, kid: "test-key-1", alg: "RS256", use: "sig" });
}

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(__dirname, "migrations"));
  const signingKey = await testSigningKey();
  return {
    plugins: [
      cloudflareTest({
        main: "./src/index.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: { TEST_MIGRATIONS: migrations, JWT_PRIVATE_KEY: signingKey },
        },
      }),
    ],
    test: {
      setupFiles: ["./test/setup/apply-migrations.ts"],
      include: ["test/**/*.test.ts"],
      silent: "passed-only" as const,
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  };
});
