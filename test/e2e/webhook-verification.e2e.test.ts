import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { verifyMedpartsSignature } from "../../portal/snippets/verify-webhook";
import { type Listener, startWebhookListener } from "../../scripts/tools/webhook-listener";

/**
 * The webhooks guide's verification code (portal/snippets), run against real deliveries of the API under
 * `wrangler dev`: `npm run webhook-listener`'s listener receives them and, with --forward-to, passes each on as it came
 * to a receiver here, which keeps the raw body and headers. Each language's function must accept the delivery and
 * refuse it tampered, with another secret, and stale. C# is not run: these machines have no .NET.
 */

const SNIPPETS = path.join(import.meta.dirname, "../../portal/snippets");
const baseUrl = inject("baseUrl");

interface Delivery {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const forwarded: Delivery[] = [];
/** What the receiver answers the forwarded deliveries. */
let receiverStatus = 200;
let receiver: Server;
let receiverUrl: string;
let listener: Listener;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), "webhook-snippets-"));
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      forwarded.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(receiverStatus).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const address = receiver.address();
  receiverUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/webhooks`;
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  listener = await startWebhookListener({ baseUrl, credentials: inject("buyer"), port, forwardTo: receiverUrl });
});

afterAll(async () => {
  await listener?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  rmSync(work, { recursive: true, force: true });
});

/** Python's function on a delivery: true or false as it answers. */
function python(secret: string, header: string, body: Buffer): boolean {
  const script = `import base64, json, sys\nsys.path.insert(0, ${JSON.stringify(SNIPPETS)})\nfrom verify_webhook import verify_medparts_signature\nd = json.load(sys.stdin)\nprint(verify_medparts_signature(d["secret"], d["header"], base64.b64decode(d["body"])))`;
  const run = spawnSync("python3", ["-c", script], {
    input: JSON.stringify({ secret, header, body: body.toString("base64") }),
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`python3: ${run.stderr}`);
  return run.stdout.trim() === "True";
}

let javaCompiled = false;

/** Java's function on a delivery (compiled once with a small main that reads the body from a file). */
function java(secret: string, header: string, body: Buffer): boolean {
  const classes = path.join(work, "classes");
  if (!javaCompiled) {
    javaCompiled = true;
    writeFileSync(
      path.join(work, "Verify.java"),
      `public class Verify { public static void main(String[] a) throws Exception { System.out.println(MedpartsWebhook.verify(a[0], a[1], java.nio.file.Files.readAllBytes(java.nio.file.Path.of(a[2])), 300)); } }`,
    );
    const compile = spawnSync("javac", ["-d", classes, path.join(SNIPPETS, "MedpartsWebhook.java"), path.join(work, "Verify.java")], {
      encoding: "utf8",
    });
    if (compile.status !== 0) throw new Error(`javac: ${compile.stderr}`);
  }
  const bodyFile = path.join(work, "body.json");
  writeFileSync(bodyFile, body);
  const run = spawnSync("java", ["-cp", classes, "Verify", secret, header, bodyFile], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`java: ${run.stderr}`);
  return run.stdout.trim() === "true";
}

const VERIFIERS = {
  typescript: (secret: string, header: string, body: Buffer) => verifyMedpartsSignature(secret, header, body),
  python,
  java,
};

/** The signature header of `header` moved `seconds` back, re-signed with nothing: a replay of an old delivery. */
const staleHeader = (header: string, seconds: number) => header.replace(/t=(\d+)/, (_all, t: string) => `t=${Number(t) - seconds}`);

const buyerToken = () =>
  fetch(`${baseUrl}/auth/oauth2/token`, {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: inject("buyer").clientId,
      client_secret: inject("buyer").clientSecret,
    }),
  }).then(async (res) => ((await res.json()) as { access_token: string }).access_token);

describe("the webhooks guide's verification code, on real deliveries", () => {
  it("the listener prints the secret it verifies with, and forwards each delivery with its body and Medparts headers as received", async () => {
    expect(listener.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const token = await buyerToken();
    for (const type of [undefined, "order.shipped"]) {
      const res = await fetch(`${baseUrl}/customer/api/webhook-endpoints/${listener.endpointId}/test`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify(type ? { type } : {}),
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { delivered: boolean } }).data.delivered).toBe(true);
    }
    await expect.poll(() => forwarded.length, { timeout: 10_000 }).toBe(2);
    for (const delivery of forwarded) {
      expect(delivery.headers["medparts-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(delivery.headers["medparts-event-id"]).toBe(JSON.parse(delivery.body.toString()).id);
      expect(delivery.headers["content-type"]).toMatch(/^application\/json/);
    }
    expect(listener.received.map((event) => event.type)).toEqual(["webhook_endpoint.test", "order.shipped"]);
  });

  it("Medparts records the receiver's status as the receiver answered the forward: 200 as 200, 500 as 500", async () => {
    const token = await buyerToken();
    const recorded = async () => {
      const res = await fetch(`${baseUrl}/customer/api/webhook-endpoints/${listener.endpointId}/test`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: "{}",
      });
      return ((await res.json()) as { data: { statusCode: number | null } }).data.statusCode;
    };
    try {
      for (const status of [200, 500, 202]) {
        receiverStatus = status;
        expect(await recorded(), `receiver answered ${status}`).toBe(status);
      }
    } finally {
      receiverStatus = 200;
    }
  });

  for (const [language, verify] of Object.entries(VERIFIERS)) {
    it(`${language}: accepts each delivery; refuses it tampered, under another secret, or stale`, () => {
      expect(forwarded.length).toBeGreaterThan(0);
      for (const { headers, body } of forwarded) {
        const header = headers["medparts-signature"] as string;
        expect(verify(listener.secret, header, body), "as delivered").toBe(true);
        const tampered = Buffer.from(body.toString().replace(/"type":"/, '"type":"x'));
        expect(verify(listener.secret, header, tampered), "tampered").toBe(false);
        expect(verify(`whsec_${"0".repeat(64)}`, header, body), "another secret").toBe(false);
        expect(verify(listener.secret, staleHeader(header, 600), body), "stale").toBe(false);
        expect(verify(listener.secret, "t=abc,v1=zz", body), "malformed").toBe(false);
      }
    });
  }
});
