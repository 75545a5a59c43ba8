import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { missingOwnerMessage } from "../../scripts/tools/create-client-owner";
import { sandboxTenantStatement } from "../../src/platform/test-mode";

/** npm run create-client's check of the owner, on the seeded local database with tenant 1's sandbox twin (-1) made. */
describe("npm run create-client: the owner of a new client", () => {
  it("an unknown tenant lists the tenants a person can name, not the internal sandbox twins", async () => {
    await sandboxTenantStatement(env.DB, 1).run();
    expect(await env.DB.prepare("SELECT id FROM tenants WHERE id = -1").first()).not.toBeNull();
    const live = (await env.DB.prepare("SELECT id FROM tenants WHERE id > 0 ORDER BY id").all<{ id: number }>()).results.map(
      (row) => row.id,
    );
    expect(await missingOwnerMessage(env.DB, "tenant", 99)).toBe(`There is no tenant 99: the local database has ${live.join(", ")}.`);
    expect(await missingOwnerMessage(env.DB, "tenant", 1)).toBeNull();
  });

  it("an unknown vendor lists the vendors", async () => {
    expect(await missingOwnerMessage(env.DB, "vendor", 999)).toMatch(/^There is no vendor 999: the local database has 1, 2, /);
    expect(await missingOwnerMessage(env.DB, "vendor", 4)).toBeNull();
  });
});
