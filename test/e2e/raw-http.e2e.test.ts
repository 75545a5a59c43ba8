import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { send } from "../../scripts/bench/client";
import { orderRequest } from "../../scripts/bench/scenarios";

/**
 * Requests that fetch() cannot make (so the workerd tests cannot either) written byte by byte to a raw socket of
 * `wrangler dev`, as curl or a hand-rolled client sends them.
 */

const baseUrl = new URL(inject("baseUrl"));

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One HTTP/1.1 request with exactly these header lines and body (no Content-Length unless given), then the answer. */
function raw(method: string, path: string, headers: Record<string, string | number> = {}, body: string | Buffer = ""): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(baseUrl.port), baseUrl.hostname);
    const lines = [`${method} ${path} HTTP/1.1`, `Host: ${baseUrl.host}`, "Connection: close"];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => resolve(parseAnswer(Buffer.concat(chunks))));
    socket.write(Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`), Buffer.from(body)]));
  });
}

function parseAnswer(bytes: Buffer): RawAnswer {
  const split = bytes.indexOf("\r\n\r\n");
  const [statusLine, ...headerLines] = bytes.subarray(0, split).toString("latin1").split("\r\n");
  const headers = Object.fromEntries(
    headerLines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
  );
  let body = bytes.subarray(split + 4);
  if (headers["transfer-encoding"] === "chunked") {
    const parts: Buffer[] = [];
    for (let at = 0; ; ) {
      const lineEnd = body.indexOf("\r\n", at);
      const size = Number.parseInt(body.subarray(at, lineEnd).toString(), 16);
      if (!size) break;
      parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  }
  return { status: Number(statusLine!.split(" ")[1]), headers, body: body.toString("utf8") };
}

/** The two ways a client sends "no body": no body headers at all (curl -X DELETE), or Content-Length: 0 (Node's fetch). */
const NO_BODY_FORMS: Record<string, Record<string, string | number>> = {
  "no Content-Length": {},
  "Content-Length: 0": { "Content-Length": 0 },
  "Content-Length: 0 and a JSON Content-Type": { "Content-Length": 0, "Content-Type": "application/json" },
};

async function api<T = any>(
  path: string,
  init: { token?: string; method?: string; json?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await fetch(new URL(path, baseUrl), {
    method: init.method ?? (init.json === undefined ? "GET" : "POST"),
    headers: {
      ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
      ...(init.json === undefined ? {} : { "Content-Type": "application/json" }),
      ...init.headers,
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

async function tokenOf({ clientId, clientSecret }: { clientId: string; clientSecret: string }): Promise<string> {
  const res = await fetch(new URL("/auth/oauth2/token", baseUrl), {
    method: "POST",
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

describe("GET and HEAD with a body (curl -X GET -d x)", () => {
  it("the body is ignored: health answers 200, the API answers as without a body, never a 5xx", async () => {
    expect((await raw("GET", "/health/live", { "Content-Length": 1 }, "x")).status).toBe(200);
    expect((await raw("HEAD", "/health/live", { "Content-Length": 1 }, "x")).status).toBe(200);
    const lookup = await raw(
      "GET",
      "/customer/api/users/lookup?userId=1",
      { "Content-Length": 7, "Content-Type": "application/json" },
      '{"a":1}',
    );
    expect(lookup.status).toBe(401);
    expect(JSON.parse(lookup.body)).toMatchObject({ status: 401 });
  });
});

describe("requests without a body where the document declares none (or an optional one), in every form", () => {
  let buyer: string;
  let vendor: string;
  let receiver: Server;
  let received = 0;
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    buyer = await tokenOf(inject("buyer"));
    vendor = await tokenOf(inject("vendor"));
    receiver = createServer((req, res) => {
      received++;
      req.resume();
      res.end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  /** A new order of one line of the demo vendor (the bench's order, as jsmith for facility 1001). */
  async function orderOfDemoVendor(): Promise<{ orderNumber: string; lineId: number }> {
    for (let n = 1; n <= 60; n++) {
      const productId = `MP-${String(n).padStart(7, "0")}`;
      const detail = await api(`/customer/api/catalog/detail`, { token: buyer, json: { productId, requesterId: 50001, facilityId: 1001 } });
      const option = detail.data.options.find((o: any) => o.customFields.length === 0 && o.vendorName === "OEM Authorized Distribution");
      if (!option) continue;
      const order = await send<{ data: { orderNumber: string } }>(
        baseUrl.origin,
        orderRequest({ token: buyer }, { priceOptionId: option.priceOptionId, productId, price: option.price }, crypto.randomUUID()),
        201,
      );
      const { orderNumber } = order.data;
      const read = await api(`/customer/api/orders/${orderNumber}?include=lineItems`, { token: buyer });
      return { orderNumber, lineId: read.data.lineItems[0].lineId };
    }
    throw new Error("no demo product has an option of the demo vendor without custom fields");
  }

  for (const [form, headers] of Object.entries(NO_BODY_FORMS)) {
    it(`${form}: DELETE and test a webhook endpoint, cancel an order, deliver a line, search users`, async () => {
      const endpoint = await api("/customer/api/webhook-endpoints", {
        token: buyer,
        json: { url: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`, eventTypes: ["order.cancelled"] },
      });
      const id = endpoint.data.id as string;
      const before = received;
      const ping = await raw("POST", `/customer/api/webhook-endpoints/${id}/test`, { ...auth(buyer), ...headers });
      expect(ping.status, ping.body).toBe(200);
      expect(JSON.parse(ping.body).data.delivered).toBe(true);
      expect(received).toBe(before + 1);
      const removed = await raw("DELETE", `/customer/api/webhook-endpoints/${id}`, { ...auth(buyer), ...headers });
      expect(removed.status, removed.body).toBe(204);
      expect(removed.body).toBe("");
      const listed = await api("/customer/api/webhook-endpoints", { token: buyer });
      expect(listed.data.endpoints.map((e: { id: string }) => e.id)).not.toContain(id);

      const cancelled = await orderOfDemoVendor();
      const cancel = await raw("POST", `/customer/api/orders/${cancelled.orderNumber}/cancel`, {
        ...auth(buyer),
        "Idempotency-Key": crypto.randomUUID(),
        ...headers,
      });
      expect(cancel.status, cancel.body).toBe(200);
      expect(JSON.parse(cancel.body).data).toMatchObject({ status: "Cancelled", cancelledLineIds: [cancelled.lineId] });

      const shipped = await orderOfDemoVendor();
      await api(`/vendor/api/order-lines/${shipped.lineId}/acknowledge`, {
        token: vendor,
        json: { promisedShipDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) },
      });
      await api(`/vendor/api/order-lines/${shipped.lineId}/ship`, { token: vendor, json: { trackingNumber: `1ZRAW${shipped.lineId}` } });
      const deliver = await raw("POST", `/vendor/api/order-lines/${shipped.lineId}/deliver`, { ...auth(vendor), ...headers });
      expect(deliver.status, deliver.body).toBe(200);
      expect(JSON.parse(deliver.body).data.line.statusName).toBe("Delivered");

      const users = await raw("POST", "/customer/api/users/search", { ...auth(buyer), ...headers });
      expect(users.status, users.body).toBe(200);
      expect(JSON.parse(users.body).data.users.length).toBeGreaterThan(0);
    });
  }

  it("a body that is there still needs a JSON Content-Type (415), and must be UTF-8 (400)", async () => {
    const text = await raw(
      "POST",
      "/customer/api/users/search",
      { ...auth(buyer), "Content-Length": 2, "Content-Type": "text/plain" },
      "{}",
    );
    expect(text.status).toBe(415);
    const latin1 = Buffer.from('{"filters":{"lastName":"M\xfcller"}}', "latin1");
    const notUtf8 = await raw(
      "POST",
      "/customer/api/users/search",
      { ...auth(buyer), "Content-Length": latin1.byteLength, "Content-Type": "application/json" },
      latin1,
    );
    expect(notUtf8.status).toBe(400);
    // The demo clients are answered at the latest version: an entry per message, with its field.
    expect(JSON.parse(notUtf8.body).errors).toEqual([{ field: "body", detail: expect.stringContaining("UTF-8") }]);
  });
});
