import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { STORE_TABLES } from "../../src/shared/tenants/tables";
import { expectProblem, TENANT_A, TENANT_B } from "../helpers/api";
import {
  freshOrder,
  issueQuotes,
  KJOHNSON,
  lineFor,
  NOTHING_WRITTEN,
  orderBody,
  placeOrder,
  rowsWrittenBy,
  withoutFields,
} from "../helpers/orders";

const setState = (tenantId: number, state: "copying" | "copied") =>
  env.DB.prepare(
    "INSERT INTO tenant_stores (tenant_id, state) VALUES (?1, ?2) ON CONFLICT (tenant_id) DO UPDATE SET state = excluded.state",
  )
    .bind(tenantId, state)
    .run();

afterEach(() => env.DB.prepare("DELETE FROM tenant_stores").run());

describe("the read-only window of a tenant's move into its stores (migrations/0028)", () => {
  it("every store table refuses inserts, updates and deletes of a moving tenant's rows, by the owner the copy reads", async () => {
    const { results } = await env.DB.prepare(
      "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%read_only%'",
    ).all<{
      name: string;
      tbl_name: string;
      sql: string;
    }>();
    expect(results).toHaveLength(STORE_TABLES.length * 3);
    for (const table of STORE_TABLES) {
      for (const [operation, row] of [
        ["insert", "NEW"],
        ["update", "NEW"],
        ["delete", "OLD"],
      ] as const) {
        const trigger = results.find((t) => t.name === `${table.name}_read_only_${operation}`);
        expect(trigger?.tbl_name, `${table.name} ${operation}`).toBe(table.name);
        expect(trigger?.sql).toContain(`abs(${table.owner.replaceAll("t.", `${row}.`)})`);
      }
    }
  });

  it("every directory table records a switched tenant's writes for its stores, by the same owner (migrations/0030)", async () => {
    const { results } = await env.DB.prepare(
      "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%directory_change%'",
    ).all<{ name: string; tbl_name: string; sql: string }>();
    const directory = STORE_TABLES.filter((table) => table.directory);
    expect(results).toHaveLength(directory.length * 3);
    for (const table of directory) {
      for (const [operation, rows] of [
        ["insert", ["NEW"]],
        ["update", ["OLD", "NEW"]],
        ["delete", ["OLD"]],
      ] as const) {
        const trigger = results.find((t) => t.name === `${table.name}_directory_change_${operation}`);
        expect(trigger?.tbl_name, `${table.name} ${operation}`).toBe(table.name);
        for (const row of rows) {
          expect(trigger?.sql).toContain(`abs(${table.owner.replaceAll("t.", `${row}.`)})`);
          expect(trigger?.sql).toContain(`json_array(${table.key.map((column) => `${row}.${column}`).join(", ")})`);
        }
      }
    }
  });

  it("an order of a moving tenant is a 503 with Retry-After and writes nothing; other tenants order as usual", async () => {
    const quote = (await issueQuotes("MP-0000001")).find(withoutFields)!;
    await setState(TENANT_A, "copying");
    const { result, written } = await rowsWrittenBy(() => placeOrder(orderBody([lineFor(quote)])));
    const problem = await expectProblem(result, 503);
    expect(result.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(JSON.stringify(problem)).not.toContain("SQLITE");
    expect(written).toEqual(NOTHING_WRITTEN);
    await expect(freshOrder(1, { who: KJOHNSON })).resolves.toMatchObject({ orderNumber: expect.any(String) });
    expect(KJOHNSON.tenantId).toBe(TENANT_B);
  });

  it("covers the sandbox twin's rows (tenant -T) and the rows a table reaches only through its parent", async () => {
    const { orderNumber, lineIds } = await freshOrder(1);
    await setState(TENANT_A, "copying");
    await expect(env.DB.prepare("UPDATE order_lines SET po_number = 'X' WHERE id = ?1").bind(lineIds[0]).run()).rejects.toThrow(
      /not written here while it moves/,
    );
    await expect(
      env.DB.prepare(
        "INSERT INTO webhook_endpoints (id, tenant_id, url, event_types, secret_salt, created_at) VALUES ('we_twin', ?1, 'https://x.example', '[]', 's', 'now')",
      )
        .bind(-TENANT_A)
        .run(),
    ).rejects.toThrow(/not written here while it moves/);
    await setState(TENANT_A, "copied");
    await env.DB.prepare("UPDATE orders SET notes = 'after the copy' WHERE order_number = ?1").bind(orderNumber).run();
    expect(await env.DB.prepare("SELECT notes FROM orders WHERE order_number = ?1").bind(orderNumber).first("notes")).toBe(
      "after the copy",
    );
  });
});
