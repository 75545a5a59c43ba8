import { defineConfig } from "vitest/config";

// `npm run test:e2e`: the real Worker under `wrangler dev` (own port and state dir) driven by headless Chromium.
export default defineConfig({
  test: {
    name: "e2e",
    environment: "node",
    include: ["test/e2e/**/*.e2e.test.ts"],
    globalSetup: ["./test/e2e/wrangler-dev.ts"],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
