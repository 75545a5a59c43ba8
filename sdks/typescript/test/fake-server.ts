import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Handler = (req: Recorded, res: ServerResponse) => unknown;

/** A fake Medparts on 127.0.0.1: a token endpoint that counts its tokens, and `api` for everything else. */
export async function fakeMedparts(api: Handler, options: { expiresIn?: number } = {}) {
  const requests: Recorded[] = [];
  const tokenRequests: Recorded[] = [];
  let issued = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", "http://x");
      const rec: Recorded = {
        method: req.method ?? "",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      if (url.pathname === "/auth/oauth2/token") {
        tokenRequests.push(rec);
        issued++;
        json(res, 200, {
          access_token: `token-${issued}`,
          token_type: "Bearer",
          expires_in: options.expiresIn ?? 3600,
          scope: "orders:read",
        });
        return;
      }
      requests.push(rec);
      try {
        await api(rec, res);
      } catch (error) {
        json(res, 500, { error: String(error) });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    tokenRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function ok(res: ServerResponse, data: unknown, status = 200, headers: Record<string, string> = {}) {
  json(res, status, { success: true, data, correlationId: "corr-ok-123", timestamp: new Date().toISOString() }, headers);
}

export function problem(
  res: ServerResponse,
  status: number,
  slug: string,
  detail: string,
  errors: { field?: string; detail: string }[] = [],
  headers: Record<string, string> = {},
) {
  const body = {
    type: `http://127.0.0.1/docs/errors/${slug}`,
    title: slug,
    status,
    detail,
    instance: "/customer/api/x",
    correlationId: `corr-${status}-abc`,
    timestamp: new Date().toISOString(),
    service: "medparts-customer-api",
    errors,
  };
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/problem+json",
    "Content-Length": Buffer.byteLength(text),
    "X-Correlation-Id": body.correlationId,
    ...headers,
  });
  res.end(text);
}
