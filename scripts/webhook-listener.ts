import { createServer, type Server } from "node:http";
import { pathToFileURL } from "node:url";
import { SIGNATURE_HEADER, verifySignature } from "../src/api/webhooks/signing";
import { requestInit } from "../src/dev/client/request";

/**
 * `npm run webhook-listener`: a local webhook receiver for a running `npm start`. It registers itself with the demo
 * client (tenant 1) as an endpoint for every event type, verifies each delivery's signature with the secret it got,
 * prints the events, and deletes its endpoint when stopped (Ctrl-C). `npm run demo` runs the same in-process.
 *
 *   MEDPARTS_URL (default http://localhost:8787), WEBHOOK_PORT (default 8790),
 *   MEDPARTS_CLIENT_ID / MEDPARTS_CLIENT_SECRET (default: .medparts-demo.json written by npm start)
 */

export interface ReceivedEvent {
  id: string;
  type: string;
  orderNumber: string;
  sequence: number | null;
  data: Record<string, unknown>;
}

export interface Listener {
  endpointId: string;
  received: ReceivedEvent[];
  stop(): Promise<void>;
}

const MAX_BODY_BYTES = 256 * 1024;

async function call<T>(method: string, url: string, options: Parameters<typeof requestInit>[1]): Promise<T> {
  const res = await fetch(url, requestInit(method, options));
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: HTTP ${res.status} ${text.slice(0, 500)}`);
  return (text ? JSON.parse(text) : undefined) as T; // a 204 has no body
}

export async function startWebhookListener(options: {
  baseUrl: string;
  credentials: { clientId: string; clientSecret: string };
  port: number;
  onEvent?: (event: ReceivedEvent, duplicate: boolean) => void;
}): Promise<Listener> {
  const { baseUrl, credentials, port } = options;
  const received: ReceivedEvent[] = [];
  let secret = "";
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on("end", async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const signature = req.headers[SIGNATURE_HEADER.toLowerCase()];
      if (!(await verifySignature(secret, typeof signature === "string" ? signature : null, body))) {
        res.writeHead(401).end("bad signature");
        console.log("   ! refused a delivery with a bad or stale signature");
        return;
      }
      const event = JSON.parse(body) as ReceivedEvent;
      const duplicate = received.some((e) => e.id === event.id);
      if (!duplicate) received.push(event);
      options.onEvent?.(event, duplicate);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));

  const token = (
    await call<{ access_token: string }>("POST", `${baseUrl}/auth/oauth2/token`, {
      form: { grant_type: "client_credentials", client_id: credentials.clientId, client_secret: credentials.clientSecret },
    })
  ).access_token;
  const endpoint = (
    await call<{ data: { id: string; secret: string } }>("POST", `${baseUrl}/customer/api/webhook-endpoints`, {
      token,
      json: { url: `http://localhost:${port}/webhooks`, eventTypes: ["*"] },
    })
  ).data;
  secret = endpoint.secret;
  return {
    endpointId: endpoint.id,
    received,
    stop: async () => {
      // Said, not swallowed: an endpoint left behind gets every event a second time with the next listener.
      await call("DELETE", `${baseUrl}/customer/api/webhook-endpoints/${endpoint.id}`, { token }).catch((error: unknown) =>
        console.error(`Could not delete webhook endpoint ${endpoint.id}: ${String(error)}`),
      );
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function main(): Promise<void> {
  const { existsSync, readFileSync } = await import("node:fs");
  const baseUrl = (process.env.MEDPARTS_URL ?? `http://localhost:${process.env.PORT ?? "8787"}`).replace(/\/$/, "");
  const { MEDPARTS_CLIENT_ID: clientId, MEDPARTS_CLIENT_SECRET: clientSecret } = process.env;
  const credentials =
    clientId && clientSecret
      ? { clientId, clientSecret }
      : existsSync(".medparts-demo.json")
        ? (JSON.parse(readFileSync(".medparts-demo.json", "utf8")) as { clientId: string; clientSecret: string })
        : undefined;
  if (!credentials) throw new Error("No credentials: run `npm start` first or set MEDPARTS_CLIENT_ID and MEDPARTS_CLIENT_SECRET.");
  const port = Number(process.env.WEBHOOK_PORT ?? 8790);
  const listener = await startWebhookListener({
    baseUrl,
    credentials,
    port,
    onEvent: (event, duplicate) =>
      console.log(
        `${duplicate ? "(again) " : ""}${event.type} #${event.sequence ?? "-"} ${event.orderNumber} ${JSON.stringify(event.data)}`,
      ),
  });
  console.log(`Listening on http://localhost:${port}/webhooks as endpoint ${listener.endpointId}; signatures verified. Ctrl-C to stop.`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => void listener.stop().then(() => process.exit(0)));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error: unknown) => {
    console.error(String(error));
    process.exit(1);
  });
}
