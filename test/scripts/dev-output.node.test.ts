import { describe, expect, it } from "vitest";
import { DevOutput, startBanner } from "../../scripts/dev/output";

/** What `npm start` shows of wrangler dev's output: a recorded start-up, line by line. */

const table = (worker: string, rows: string[]) => [
  `${worker} has access to the following bindings:`,
  "Binding    Resource    Mode",
  ...rows,
  "",
];
const WRANGLER = [
  " ⛅️ wrangler 4.164.0",
  ...table("medparts", ["env.DB (medparts)    D1 Database    local", "env.DOCS (medparts-docs)    Worker    local [not connected]"]),
  "Service bindings, Durable Object bindings, and Tail consumers connect to other Wrangler or Vite dev processes running locally",
  ...table("medparts-admin", ["env.IMPORTS (medparts-imports)    R2 Bucket    local"]),
  "\u001b[33m❓ Your types might be out of date. Re-run `wrangler types` to ensure your types are correct.\u001b[0m",
  "⎔ Starting local server...",
  ...table("medparts", ["env.DB (medparts)    D1 Database    local", "env.DOCS (medparts-docs)    Worker    local [connected]"]),
  "[wrangler:info] Ready on http://127.0.0.1:8787",
  '[medparts] {"ts":"2026-11-29T07:00:00.000Z","level":"info","correlationId":"c1","method":"GET","path":"/health/live","status":200,"durationMs":0}',
  "[wrangler:info] GET /health/live 200 OK (12ms)",
  "[wrangler:info] POST /__dev/scheduled 202 Accepted (3ms)",
  "[wrangler:info] POST /__dev/seed-stores 204 No Content (41ms)",
  '[medparts] {"ts":"2026-11-29T07:00:01.000Z","level":"info","event":"housekeeping","purged":{"undispatchedEvents":0}}',
  "[wrangler:info] Ready on http://127.0.0.1:8787",
];

const DEMO = {
  buyer: { clientId: "demo-stmarys", clientSecret: "buyer-secret" },
  testMode: { clientId: "mpc_test_demo_stmarys", clientSecret: "test-secret" },
  vendor: { clientId: "demo-oem-vendor", clientSecret: "vendor-secret", vendorId: 4 },
  operator: { clientId: "demo-operator", clientSecret: "operator-secret" },
  scimToken: "mpscim_token",
};

describe("npm start's output", () => {
  const output = new DevOutput(() => "BANNER");
  const shown = WRANGLER.flatMap((line) => output.line(line));

  it("shows each Worker's bindings table once, without the false types warning or the note on other dev sessions", () => {
    expect(shown.filter((line) => line.endsWith("has access to the following bindings:"))).toEqual([
      "medparts has access to the following bindings:",
      "medparts-admin has access to the following bindings:",
    ]);
    expect(shown.join("\n")).not.toContain("[connected]");
    expect(shown.join("\n")).not.toContain("types might be out of date");
    expect(shown.join("\n")).not.toContain("Service bindings, Durable Object bindings");
  });

  it("shows one line per request but the local crons' own, and keeps the API's other log lines", () => {
    expect(shown.filter((line) => line.includes("/health/live"))).toEqual(["[wrangler:info] GET /health/live 200 OK (12ms)"]);
    expect(shown.filter((line) => line.includes("/__dev/scheduled") || line.includes("/__dev/seed-stores"))).toEqual([]);
    expect(shown.some((line) => line.includes('"event":"housekeeping"'))).toBe(true);
  });

  it("prints the banner once the runtime is prepared (live, its demo stores seeded), never among wrangler's lines", () => {
    expect(shown).not.toContain("BANNER");
    expect(output.prepared()).toEqual(["BANNER"]);
    expect(output.prepared()).toEqual([]);
  });

  it("the banner: the API and portal URLs, every demo credential in a table, the next steps", () => {
    const banner = startBanner("http://localhost:8787", { ...DEMO, deskInvitation: "/desk/invitations/abc" }, ".medparts-demo.json");
    expect(banner).toContain("http://localhost:8787/docs");
    expect(banner).toContain("http://localhost:8787/desk ");
    expect(banner).toContain("http://localhost:8787/desk/invitations/abc");
    for (const value of [
      "demo-stmarys",
      "buyer-secret",
      "mpc_test_demo_stmarys",
      "test-secret",
      "demo-oem-vendor",
      "vendor-secret",
      "demo-operator",
      "operator-secret",
      "mpscim_token",
    ])
      expect(banner).toContain(value);
    for (const next of ["npm run demo", "npm run webhook-listener"]) expect(banner).toContain(next);
    // A table: each credential row has its id and its secret on one line, the secrets in one column.
    const rows = banner.split("\n").filter((line) => /buyer-secret|vendor-secret|operator-secret|test-secret/.test(line));
    expect(new Set(rows.map((row) => row.search(/\S+-secret$/))).size).toBe(1);
  });

  it("the banner's next steps name the server's URL when it is not the scripts' default (PORT set)", () => {
    const elsewhere = startBanner("http://localhost:9123", DEMO, ".medparts-demo.json");
    expect(elsewhere).toContain("npm run demo -- --url http://localhost:9123 ");
    expect(elsewhere).toContain("npm run webhook-listener -- --url http://localhost:9123 ");
    expect(elsewhere).toContain("npm run import -- <file> --url http://localhost:9123 ");
    const usual = startBanner("http://localhost:8787", DEMO, ".medparts-demo.json");
    expect(usual).not.toContain("--url");
    expect(usual).toMatch(/npm run demo {2,}the integrator flow/);
  });
});
