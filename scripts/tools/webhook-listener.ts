import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { SIGNATURE_HEADER, verifySignature } from "../../src/api/webhooks/signing";
import { requestInit } from "../../src/dev/client/request";
import { cliArgs, listenPortOf, UsageError, UserError } from "../cli";

/**
 * `npm run webhook-listener`: a local webhook receiver for a running `npm start`, like `stripe listen`. It registers
 * itself with the demo client (tenant 1) as an endpoint for every event type, prints its signing secret, verifies each
 * delivery's signature, prints the events, optionally forwards each verified delivery as it came (body and Medparts-*
 * headers) to a local receiver of yours, and deletes its endpoint when stopped (Ctrl-C). `npm run demo` runs the same
 * in-process.
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
  /** Where it listens, as registered: http://localhost:<port>/webhooks. */
  url: string;
  /** The endpoint's signing secret (whsec_...): what a receiver verifies deliveries with. */
  secret: string;
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
  /** An access token of that client already at hand (else the listener asks for one). */
  token?: string;
  /** 0: a free port the system picks. */
  port: number;
  onEvent?: (event: ReceivedEvent, duplicate: boolean) => void;
  /** Each verified delivery is posted here as it came; the listener answers with that receiver's status (502 if unreached). */
  forwardTo?: string;
  onForward?: (event: ReceivedEvent, outcome: string) => void;
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
      if (!options.forwardTo) {
        res.writeHead(204).end();
        return;
      }
      const status = await forward(options.forwardTo, req.headers, body);
      options.onForward?.(event, typeof status === "number" ? `HTTP ${status}` : status);
      // Your receiver's status as it answered, so that Medparts records (and retries) what your receiver said.
      res.writeHead(typeof status === "number" ? status : 502).end();
    });
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
  const closeServer = () => new Promise<void>((resolve) => server.close(() => resolve()));
  const url = `http://localhost:${(server.address() as AddressInfo).port}/webhooks`;

  let endpoint: { id: string; secret: string };
  let token: string;
  try {
    token =
      options.token ??
      (
        await call<{ access_token: string }>("POST", `${baseUrl}/auth/oauth2/token`, {
          form: { grant_type: "client_credentials", client_id: credentials.clientId, client_secret: credentials.clientSecret },
        })
      ).access_token;
    endpoint = (
      await call<{ data: { id: string; secret: string } }>("POST", `${baseUrl}/customer/api/webhook-endpoints`, {
        token,
        json: { url, eventTypes: ["*"] },
      })
    ).data;
  } catch (error) {
    // Nothing to receive for: the port is given back, so that the process can end.
    await closeServer();
    throw error;
  }
  secret = endpoint.secret;
  return {
    endpointId: endpoint.id,
    url,
    secret,
    received,
    stop: async () => {
      // Said, not swallowed: an endpoint left behind gets every event a second time with the next listener.
      await call("DELETE", `${baseUrl}/customer/api/webhook-endpoints/${endpoint.id}`, { token }).catch((error: unknown) =>
        console.error(`Could not delete webhook endpoint ${endpoint.id}: ${String(error)}`),
      );
      await closeServer();
    },
  };
}

/** The headers a delivery is forwarded with: its content type and Medparts' own. */
const FORWARDED_HEADERS = /^(content-type|medparts-.*)$/;

/** POSTs a delivery on to `url`: its status, or why it did not arrive. */
async function forward(url: string, headers: Record<string, string | string[] | undefined>, body: string): Promise<number | string> {
  const kept = Object.entries(headers).filter(([name, value]) => FORWARDED_HEADERS.test(name) && typeof value === "string");
  try {
    const res = await fetch(url, { method: "POST", headers: Object.fromEntries(kept) as Record<string, string>, body });
    await res.arrayBuffer();
    return res.status;
  } catch (error) {
    return `not delivered (${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message})`;
  }
}

async function main(values: { "forward-to"?: string; port?: string; "client-id"?: string; "client-secret"?: string }, baseUrl: string) {
  const { existsSync, readFileSync } = await import("node:fs");
  const forwardTo = values["forward-to"];
  if (forwardTo !== undefined && !/^https?:\/\/[^/\s]+/.test(forwardTo))
    throw new UsageError(`--forward-to is an http(s) URL, not "${forwardTo}".`);
  const port = listenPortOf(values.port ?? process.env.WEBHOOK_PORT, "--port");
  const clientId = values["client-id"] ?? process.env.MEDPARTS_CLIENT_ID;
  const clientSecret = values["client-secret"] ?? process.env.MEDPARTS_CLIENT_SECRET;
  const credentials =
    clientId && clientSecret
      ? { clientId, clientSecret }
      : existsSync(".medparts-demo.json")
        ? (JSON.parse(readFileSync(".medparts-demo.json", "utf8")) as { clientId: string; clientSecret: string })
        : undefined;
  if (!credentials) throw new UserError("No credentials: run `npm start` first, or pass --client-id and --client-secret.");
  const listener = await startWebhookListener({
    baseUrl,
    credentials,
    port,
    forwardTo,
    onEvent: (event, duplicate) =>
      console.log(
        `${duplicate ? "(again) " : ""}${event.type} #${event.sequence ?? "-"} ${event.orderNumber} ${JSON.stringify(event.data)}`,
      ),
    onForward: (event, outcome) => console.log(`  -> ${forwardTo}: ${outcome} (${event.id})`),
  }).catch((error: unknown) => {
    if ((error as { code?: string }).code === "EADDRINUSE")
      throw new UserError(`Port ${port} is in use: pass another --port, or none for a free one.`);
    throw error;
  });
  console.log(`Ready. Endpoint ${listener.endpointId} receives every event type of tenant 1 at ${listener.url}.`);
  console.log(`Signing secret: ${listener.secret}  (verify deliveries with it; the webhooks guide at ${baseUrl}/docs/guides/webhooks)`);
  if (forwardTo) console.log(`Forwarding each verified delivery to ${forwardTo}.`);
  console.log("Ctrl-C to stop (the endpoint is deleted).");
  await new Promise<void>((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void listener.stop().then(resolve));
  });
}

/**
 * The listener's command line (`npm run webhook-listener`, `npm run medparts -- listen`): `argv` as given to `script`,
 * after its `command` if it has one.
 */
export async function runWebhookListener(argv: string[], script: string, command?: string): Promise<void> {
  const { values, positionals, url } = cliArgs(
    script,
    "Registers a webhook endpoint for every event type of the demo buyer (tenant 1), prints its signing secret (whsec_...), verifies and prints each delivery, and deletes the endpoint on Ctrl-C.",
    {
      "forward-to": {
        type: "string",
        help: "also POST each verified delivery, body and headers as received, to your receiver (e.g. http://localhost:3000/webhooks); its status is passed back as it answered (502 when it cannot be reached), so a failure there is retried by Medparts as any failed delivery is",
        value: "<url>",
      },
      port: { type: "string", help: "the listener's own port (default: WEBHOOK_PORT, else a free port)", value: "<n>" },
      "client-id": {
        type: "string",
        help: "a buyer client with webhooks:manage (default: MEDPARTS_CLIENT_ID, else the demo client of .medparts-demo.json)",
        value: "<id>",
      },
      "client-secret": { type: "string", help: "its secret (default: MEDPARTS_CLIENT_SECRET, else the demo client's)", value: "<secret>" },
    },
    { url: true, argv, ...(command ? { operands: command } : {}) },
  );
  if (positionals.length > 0) throw new UsageError(`Unexpected "${positionals[0]}": the listener takes options only.`);
  await main(values, url);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await runWebhookListener(process.argv.slice(2), "webhook-listener");
