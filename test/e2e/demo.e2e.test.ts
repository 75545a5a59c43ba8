import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";

/**
 * `npm run demo` against the e2e suite's `wrangler dev` (never port 8787): it must follow --url, listen on free ports
 * (two at once must not collide) and leave nothing it made active.
 */

const ROOT = path.join(import.meta.dirname, "../..");
const baseUrl = inject("baseUrl");
const operator = inject("operator");
const vendor = inject("vendor");
const buyer = inject("buyer");

function demo(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/demo/demo.ts", "--url", baseUrl, ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        MEDPARTS_URL: "http://127.0.0.1:1", // --url wins over it
        MEDPARTS_CLIENT_ID: buyer.clientId,
        MEDPARTS_CLIENT_SECRET: buyer.clientSecret,
        MEDPARTS_VENDOR_CLIENT_ID: vendor.clientId,
        MEDPARTS_VENDOR_CLIENT_SECRET: vendor.clientSecret,
        MEDPARTS_OPERATOR_CLIENT_ID: operator.clientId,
        MEDPARTS_OPERATOR_CLIENT_SECRET: operator.clientSecret,
      },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("close", (code) => resolve({ code, output }));
  });
}

async function operatorGet<T>(pathname: string): Promise<T> {
  const token = await fetch(`${baseUrl}/auth/oauth2/token`, {
    method: "POST",
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: operator.clientId, client_secret: operator.clientSecret }),
  }).then(async (res) => ((await res.json()) as { access_token: string }).access_token);
  const res = await fetch(`${baseUrl}/admin/api${pathname}`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await res.json()) as { data: T }).data;
}

describe("npm run demo -- --punchout", () => {
  it("runs against --url, two at once on free ports, and leaves its connection inert: no documentUrl, its client disabled", async () => {
    const runs = await Promise.all([demo(["--punchout"]), demo(["--punchout"])]);
    for (const { code, output } of runs) {
      expect(code, output).toBe(0);
      expect(output).toContain(`against ${baseUrl}`);
      const id = /connection\s+(\d+) retired/.exec(output)?.[1];
      expect(id, output).toBeDefined();
      const connection = await operatorGet<{ documentUrl: string | null; enabled: boolean }>(`/procurement-connections/${id}`);
      expect(connection).toMatchObject({ documentUrl: null, enabled: false });
    }
  }, 180_000);
});

/** The demo's output as steps: each numbered title with the lines printed under it. */
function steps(output: string): { title: string; lines: string[] }[] {
  const found: { title: string; lines: string[] }[] = [];
  for (const line of output.split("\n")) {
    const title = /^\d+\. (.+)$/.exec(line)?.[1];
    if (title) found.push({ title, lines: [] });
    else found.at(-1)?.lines.push(line);
  }
  return found;
}

describe("npm run demo", () => {
  it("prints each step's webhooks under that step", async () => {
    const { code, output } = await demo([]);
    expect(code, output).toBe(0);
    const webhooksOf = (title: string) =>
      steps(output)
        .find((step) => step.title.startsWith(title))
        ?.lines.map((line) => /^\s+webhook\s+(\S+)/.exec(line)?.[1])
        .filter(Boolean);
    expect(webhooksOf("Create the order")).toEqual(["order.created"]);
    expect(webhooksOf("The vendor confirms with a price change")).toEqual(["order.confirmed"]);
    expect(webhooksOf("The buyer accepts the change")).toEqual(["order.change_accepted"]);
    expect(webhooksOf("The vendor ships 1 of 2")).toEqual(["order.shipped"]);
    expect(webhooksOf("The buyer tries to cancel")).toEqual([]);
    expect(webhooksOf("The vendor ships the rest")).toEqual(["order.shipped", "order.delivered"]);
    expect(webhooksOf("The vendor invoices one unit")).toEqual(["invoice.received", "invoice.matched"]);
    expect(webhooksOf("The second unit's invoice")).toEqual(["invoice.received", "invoice.exception", "invoice.disputed"]);
    expect(webhooksOf("Exchange:")).toEqual(["order.created"]);
    expect(webhooksOf("The vendor ships the exchange part")).toEqual(["order.acknowledged", "order.shipped", "core.opened"]);
    expect(webhooksOf("The buyer ships the failed part back")).toEqual(["core.shipped", "core.received"]);
    for (const step of ["Token", "Look up the buyer", "Search the catalog", "Find the order"]) expect(webhooksOf(step), step).toEqual([]);
  }, 240_000);
});

describe("npm run demo -- --edi", () => {
  it("runs the X12 round step by step; a second run reuses the partner and is not a duplicate", async () => {
    const titles = (output: string) => steps(output).map((step) => step.title.split(":")[0]);
    const lines = (output: string, title: string) =>
      steps(output)
        .find((step) => step.title.startsWith(title))
        ?.lines.join("\n") ?? "";
    const first = await demo(["--edi"]);
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain(`against ${baseUrl}`);
    expect(titles(first.output)).toHaveLength(9);
    const partnerId = /partner\s+(\d+) "[^"]*" (added|reused)/.exec(first.output)?.[1];
    expect(partnerId, first.output).toBeDefined();
    expect(lines(first.output, "The partner fetches its 850")).toMatch(/X12\s+PO1\*\d+\*2\*EA\*/);
    expect(lines(first.output, "The partner confirms with a price change")).toMatch(/pending change\s+IP: unit price/);
    expect(lines(first.output, "The buyer approves")).toMatch(/line\s+Acknowledged at/);
    expect(lines(first.output, "The partner ships")).toMatch(/line Shipped, 2 of 2 shipped/);
    expect(lines(first.output, "The partner ships").match(/\bunit\s+GTIN \d{14}, lot \S+, serial/g)).toHaveLength(2);
    expect(lines(first.output, "The partner invoices")).toMatch(/invoice\s+\S+ \(id \d+\): total [\d.]+, matched/);
    // One for each of the 855, 856 and 810; the partner's own 997 (of the 850) is not acknowledged in turn.
    expect(lines(first.output, "The partner takes our 997s").match(/taken\s+997/g)).toHaveLength(3);

    const second = await demo(["--edi"]);
    expect(second.code, second.output).toBe(0);
    expect(second.output).toContain(`partner            ${partnerId} "`);
    expect(second.output).toMatch(/reused/);
    expect(second.output).toContain("EDI demo complete");
  }, 180_000);

  it("stops with a clear message and a non-zero exit when a step fails", async () => {
    const { code, output } = await demo(["--edi", "--url", "http://127.0.0.1:1"]);
    expect(code).toBe(1);
    expect(output).toMatch(/DEMO FAILED at step 1: .*Is `npm start` running at http:\/\/127\.0\.0\.1:1\?/);
  });
});

describe("npm run demo -- --recall", () => {
  it("ships units with their codes, loads a recall, and the hospital's store answers it: units, scan warning, returns, vendor counts", async () => {
    const lines = (output: string, title: string) =>
      steps(output)
        .find((step) => step.title.startsWith(title))
        ?.lines.join("\n") ?? "";
    const run = await demo(["--recall"]);
    expect(run.code, run.output).toBe(0);
    expect(steps(run.output)).toHaveLength(7);
    expect(lines(run.output, "The operator loads")).toMatch(/import\s+imp_\S+ succeeded in [\d.]+ s: \{"read":1,"created":1/);
    expect(lines(run.output, "The hospital's store matched")).toMatch(/recall\s+\d+ Z-\d{4}-2026 Class I: 3 units affected/);
    expect(
      lines(run.output, "The hospital's store matched").match(/: affected \(device identifier \d{14}, its lot listed\)/g),
      run.output,
    ).toHaveLength(3);
    expect(lines(run.output, "A nurse scans")).toMatch(/"outcome":"affected"/);
    expect(lines(run.output, "The hospital acknowledges")).toMatch(/"quantity":2,"unitIds":\[\d+,\d+\]/);
    expect(lines(run.output, "OEM Authorized Distribution sees")).toMatch(/"affectedUnits":3,"reviewUnits":0,"hospitals":1/);
    expect(run.output).toContain("Recall demo complete");
  }, 180_000);
});
