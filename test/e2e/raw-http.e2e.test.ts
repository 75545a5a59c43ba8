import { request } from "node:http";
import { describe, expect, inject, it } from "vitest";

/**
 * Requests that fetch() cannot make (so the workerd tests cannot either) sent over a raw socket to `wrangler dev`,
 * as curl or a hand-rolled client sends them.
 */

const baseUrl = new URL(inject("baseUrl"));

function send(method: string, path: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: baseUrl.hostname, port: baseUrl.port, method, path, headers: { "Content-Length": Buffer.byteLength(body), ...headers } },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("GET and HEAD with a body (curl -X GET -d x)", () => {
  it("the body is ignored: health answers 200, the API answers as without a body, never a 5xx", async () => {
    expect((await send("GET", "/health/live", "x")).status).toBe(200);
    expect((await send("HEAD", "/health/live", "x")).status).toBe(200);
    const lookup = await send("GET", "/customer/api/users/lookup?userId=1", '{"a":1}', { "Content-Type": "application/json" });
    expect(lookup.status).toBe(401);
    expect(JSON.parse(lookup.body)).toMatchObject({ status: 401 });
  });
});
