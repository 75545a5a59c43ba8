import { env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MANUFACTURERS } from "../../src/dev/seed/catalog";
import { json, TENANT_A, TENANT_B, tokenFor } from "../helpers/api";
import { contractCall } from "../helpers/contract";
import { allPages, searchData, sortedLike } from "../helpers/search";

async function names(q: string, extra: Record<string, string> = {}, tenantId = TENANT_A): Promise<string[]> {
  const data = await searchData(await tokenFor(tenantId), "/manufacturers/search", { q, limit: 100, ...extra });
  return data.items.map((m: { name: string }) => m.name);
}

const byName = (list: readonly { id: number; name: string }[], dir: "Asc" | "Desc" = "Asc") =>
  sortedLike(
    list,
    (m) => m.name,
    (m) => m.id,
    dir,
  ).map((m) => m.name);

describe("GET /manufacturers/search", () => {
  it("lists every manufacturer by name, the same for every tenant (global list)", async () => {
    const data = await searchData(await tokenFor(TENANT_A), "/manufacturers/search", { limit: 100 });
    expect(data.pagination).toEqual({ total: MANUFACTURERS.length, limit: 100, offset: 0, hasMore: false });
    expect(data.items[0]).toEqual({ manufacturerId: expect.any(Number), name: byName(MANUFACTURERS)[0] });
    expect(data.items.map((m: { name: string }) => m.name)).toEqual(byName(MANUFACTURERS));
    expect(await names("", {}, TENANT_B)).toEqual(byName(MANUFACTURERS));
  });

  it("filters by name and manufacturerId", async () => {
    expect(await names('name:"philips healthcare"')).toEqual(["Philips Healthcare"]);
    expect(await names('name:"Philips"')).toEqual([]);
    expect(await names('name~"HEALTH"')).toEqual(byName(MANUFACTURERS.filter((m) => m.name.toLowerCase().includes("health"))));
    expect(await names("manufacturerId:4")).toEqual(["Medtronic"]);
    expect(await names('manufacturerId>=22 AND -name~"med"')).toEqual(
      byName(MANUFACTURERS.filter((m) => m.id >= 22 && !m.name.toLowerCase().includes("med"))),
    );
  });

  it("sorts descending and pages through all of them once", async () => {
    expect(await names("", { sortBy: "name", sortDir: "Desc" })).toEqual(byName(MANUFACTURERS, "Desc"));
    const paged = await allPages<{ manufacturerId: number }>(
      await tokenFor(TENANT_A),
      "/manufacturers/search",
      "items",
      { sortBy: "manufacturerId", sortDir: "Desc" },
      5,
    );
    expect(paged.map((m) => m.manufacturerId)).toEqual(MANUFACTURERS.map((m) => m.id).reverse());
  });
});

describe("GET /manufacturers/search: LIKE wildcards in ~ are literal", () => {
  const extra = [
    { id: 9001, name: "Acme 100% Parts" },
    { id: 9002, name: "Acme 1000 Parts" },
    { id: 9003, name: "Under_Score Medical" },
    { id: 9004, name: "UnderXScore Medical" },
    { id: 9005, name: "Back\\Slash Devices" },
    { id: 9006, name: "BackSlash Devices" },
  ];

  beforeAll(async () => {
    await env.CATALOG.batch(extra.map((m) => env.CATALOG.prepare("insert into manufacturers (id, name) values (?, ?)").bind(m.id, m.name)));
  });
  afterAll(async () => {
    await env.CATALOG.prepare("delete from manufacturers where id >= 9001").run();
  });

  it("escapes %", async () => {
    expect(await names('name~"100%"')).toEqual(["Acme 100% Parts"]);
    expect(await names('name~"%%%"')).toEqual([]);
  });

  it("escapes _", async () => {
    expect(await names('name~"r_S"')).toEqual(["Under_Score Medical"]);
    expect(await names('name~"___"')).toEqual([]);
  });

  it("escapes the backslash", async () => {
    expect(await names('name~"k\\\\S"')).toEqual(["Back\\Slash Devices"]);
    expect(await names('name:"back\\\\slash devices"')).toEqual(["Back\\Slash Devices"]);
  });
});

describe("GET /manufacturers/search: ~ operands of any length the limits allow (D1 refuses LIKE patterns over 50 bytes)", () => {
  const longName = "Consolidated Biomedical Replacement Parts And Service Company Of North America";

  beforeAll(async () => {
    await env.CATALOG.prepare("insert into manufacturers (id, name) values (9101, ?)").bind(longName).run();
  });
  afterAll(async () => {
    await env.CATALOG.prepare("delete from manufacturers where id = 9101").run();
  });

  it("finds a 70-byte substring and answers 200 with nothing for a long one that matches nothing", async () => {
    const operand = longName.slice(5, 75).toUpperCase();
    expect(new TextEncoder().encode(operand).length).toBeGreaterThan(50);
    expect(await names(`name~"${operand}"`)).toEqual([longName]);
    expect(await names(`name~"${"x".repeat(300)}"`)).toEqual([]);
  });

  it("GET /users/search ~ and POST /users/search emailContains take a long operand too", async () => {
    const long = "stmarys.example.org".repeat(4);
    expect((await searchData(await tokenFor(TENANT_A), "/users/search", { q: `email~"${long}"` })).items).toEqual([]);
    const res = await contractCall(await tokenFor(TENANT_A), "/users/search", {
      method: "POST",
      json: { filters: { emailContains: long } },
    });
    expect(res.status).toBe(200);
    expect((await json(res)).data.users).toEqual([]);
  });
});
