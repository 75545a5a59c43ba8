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
    const child = spawn(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/demo.ts", "--url", baseUrl, ...args], {
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
