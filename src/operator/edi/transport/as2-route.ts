import type { Context } from "hono";
import type { AppEnv } from "../../../env";
import { readAtMost } from "../../../platform/body-limit";
import { logEvent } from "../../../platform/logging";
import { limitApiClient } from "../../../platform/ratelimit/middleware";
import { readCertificate } from "../as2/cms";
import { As2Error } from "../as2/errors";
import { As2NotConfigured, ourAs2Identity } from "../as2/identity";
import { buildMdn, type MdnOutcome, peekMdn, readMdnOptions } from "../as2/mdn";
import { openMessage } from "../as2/message";
import { AS2_LIMITS, buildEntity, latin1, parseEntity } from "../as2/mime";
import { ediOf } from "../bindings";
import { type IntakeResult, takeInbound } from "../intake";
import { partnersOfAs2Names } from "../partners/partners";
import type { Partner } from "../partners/schemas";
import { takeAsyncMdn } from "./as2-receipts";

/**
 * The AS2 endpoint (POST /as2; docs/as2.md): a partner's message is opened with its certificate and our key, its X12
 * taken in (intake.ts: recorded, acknowledged and applied), and answered with an MDN, signed when asked for, in the
 * HTTP response (synchronous) or posted to the partner (asynchronous). A partner's asynchronous MDN of a message we
 * sent comes here too (./as2-receipts.ts). An MDN says the message was received and its content passed the checks; what its
 * documents did is the X12 acknowledgments' (997/999, TA1), which go back as messages of their own.
 */

/** An AS2 name from its header: 1 to 128 printable ASCII characters, in quotes when it has spaces (RFC 4130 section 6.2). */
export function as2Name(header: string | undefined): string | null {
  if (!header) return null;
  let name = header.trim();
  if (name.length >= 2 && name.startsWith('"') && name.endsWith('"'))
    name = name.slice(1, -1).replaceAll('\\"', '"').replaceAll("\\\\", "\\");
  return name.length >= 1 && name.length <= 128 && /^[ -~]+$/.test(name) ? name : null;
}

const plain = (status: number, text: string) =>
  new Response(`${text}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/** The entity the HTTP message carries: its Content-Type (and transfer encoding) as headers, then the body's bytes. */
function entityOf(request: Request, body: Uint8Array): Uint8Array {
  const headers: [string, string][] = [["Content-Type", request.headers.get("Content-Type") ?? "application/octet-stream"]];
  const encoding = request.headers.get("Content-Transfer-Encoding");
  if (encoding) headers.push(["Content-Transfer-Encoding", encoding]);
  return buildEntity(headers, body);
}

/** The MDN as an HTTP response: the entity's top-level headers become the response's, the rest its body. */
function mdnResponse(entity: Uint8Array, as2From: string, as2To: string): Response {
  const parsed = parseEntity(entity);
  const headers = new Headers({
    "AS2-Version": "1.2",
    "AS2-From": as2From,
    "AS2-To": as2To,
    "Message-ID": `<${crypto.randomUUID()}@medparts>`,
  });
  for (const [name, value] of parsed.headers.fields) headers.set(name, value);
  return new Response(parsed.body, { status: 200, headers });
}

/** A refusal of the X12 inside the message (nothing of it taken): the MDN says so, with the receipts' reasons. */
function refusedContent(results: IntakeResult[]): MdnOutcome | null {
  const refused = results.filter((result) => result.outcome === "refused");
  if (refused.length === 0 || refused.length < results.length) return null;
  const reasons = refused.map((result) => (result.outcome === "refused" ? result.reason : "")).join(" ");
  return { processed: false, failure: "malformed", explanation: `its content was not taken: ${reasons}`.slice(0, 900) };
}

export async function handleAs2(c: Context<AppEnv>): Promise<Response> {
  const env = ediOf(c.env);
  const theirName = as2Name(c.req.header("AS2-From"));
  const ourName = as2Name(c.req.header("AS2-To"));
  if (!theirName || !ourName) return plain(400, "AS2-From and AS2-To are required (RFC 4130 section 6.2).");
  const messageId = (c.req.header("Message-ID") ?? "").trim().slice(0, 998);
  if (!messageId) return plain(400, "A Message-ID is required (RFC 4130 section 5.3.3).");
  const partners = await partnersOfAs2Names(env.DB, theirName, ourName);
  const partner = partners[0];
  // Nobody's message gets no MDN: an MDN is signed with our key towards a partner we know.
  if (partner?.transport.kind !== "as2") return plain(403, `No AS2 partner sends as ${theirName} to ${ourName}.`);
  // The partner's messages count against its client's bucket, as its vendor API calls do (a 429 before the body is read).
  await limitApiClient(c, partner.clientId ?? `edi-partner-${partner.id}`, async () => {
    c.res = await answer(c, partners, messageId, ourName, theirName);
  });
  return c.res;
}

async function answer(c: Context<AppEnv>, partners: Partner[], messageId: string, ourName: string, theirName: string): Promise<Response> {
  const env = ediOf(c.env);
  const partner = partners[0]!;
  if (partner.transport.kind !== "as2") throw new Error("an AS2 partner was expected");
  const declared = Number(c.req.header("Content-Length") ?? "0");
  const body =
    declared > AS2_LIMITS.maxMessageBytes || !c.req.raw.body ? null : await readAtMost(c.req.raw.body, AS2_LIMITS.maxMessageBytes);
  if (!body) return plain(413, `An AS2 message is at most ${AS2_LIMITS.maxMessageBytes} bytes here.`);

  let identity: ReturnType<typeof ourAs2Identity>;
  try {
    identity = ourAs2Identity(env);
  } catch (error) {
    if (error instanceof As2NotConfigured) return plain(503, "AS2 is not configured on this deployment.");
    throw error;
  }
  const entity = entityOf(c.req.raw, body);
  const receipt = peekedMdn(entity);
  if (receipt) {
    const answered = await takeAsyncMdn(env, partners, receipt.originalMessageId, entity);
    return plain(answered.status, answered.text);
  }
  const wantsMdn = c.req.header("Disposition-Notification-To") !== undefined;
  let outcome: MdnOutcome;
  let mic: Awaited<ReturnType<typeof openMessage>>["mic"] | undefined;
  let signMdn = false;
  let micAlgorithm: ReturnType<typeof readMdnOptions>["micAlgorithm"];
  try {
    const options = readMdnOptions(c.req.header("Disposition-Notification-Options"));
    signMdn = options.signed;
    micAlgorithm = options.micAlgorithm;
    const opened = await openMessage(entity, {
      recipient: identity,
      partnerCertificate: readCertificate(partner.transport.partnerCertificate),
      requireSignature: true,
      requireEncryption: false,
      ...(micAlgorithm ? { micAlgorithm } : {}),
    });
    mic = opened.mic;
    const results = await takeInbound(c.env, latin1.decode(opened.content), { partnerIds: partners.map((known) => known.id) });
    outcome = refusedContent(results) ?? { processed: true };
  } catch (error) {
    if (!(error instanceof As2Error)) throw error;
    outcome = { processed: false, failure: error.kind, explanation: error.message };
  }
  logEvent(outcome.processed ? "info" : "warn", {
    event: "edi.as2.received",
    partnerId: partner.id,
    messageId,
    disposition: outcome.processed ? "processed" : outcome.failure,
  });
  if (!wantsMdn) return new Response(null, { status: 204 });
  const mdn = await buildMdn({
    ourAs2Name: ourName,
    originalMessageId: messageId,
    outcome,
    ...(mic ? { mic } : {}),
    ...(signMdn ? { signer: identity } : {}),
  });
  const response = mdnResponse(mdn, ourName, theirName);
  const receiptTo = asyncReceiptUrl(c.req.header("Receipt-Delivery-Option"), partner.transport.url);
  if (!receiptTo) return response;
  // Asynchronous (RFC 4130 section 7.3): the HTTP answer carries nothing, and the MDN is posted to the partner's own
  // host. A failed post is the partner's to notice (it has no MDN): it sends the message again, a duplicate answered so.
  c.executionCtx.waitUntil(
    fetch(receiptTo, { method: "POST", headers: response.headers, body: await response.arrayBuffer(), signal: AbortSignal.timeout(60_000) })
      .then((res) => {
        if (!res.ok) logEvent("warn", { event: "edi.as2.async_mdn", partnerId: partner.id, status: res.status });
      })
      .catch((error: unknown) =>
        logEvent("warn", {
          event: "edi.as2.async_mdn",
          partnerId: partner.id,
          message: error instanceof Error ? error.message : String(error),
        }),
      ),
  );
  return new Response(null, { status: 200 });
}

/** An MDN posted to us (an asynchronous receipt of ours), or null for a message (a malformed entity is one). */
function peekedMdn(entity: Uint8Array) {
  try {
    return peekMdn(entity);
  } catch (error) {
    if (error instanceof As2Error) return null;
    throw error;
  }
}

/**
 * Where an asynchronous MDN goes: the Receipt-Delivery-Option URL when it is https (or, as the partner's own URL is,
 * its scheme) on the host and port of the partner's configured AS2 URL; anything else gets a synchronous MDN, so a
 * message cannot make Medparts post to a host the operator did not set up.
 */
export function asyncReceiptUrl(option: string | undefined, partnerUrl: string): string | null {
  if (!option) return null;
  let asked: URL;
  let configured: URL;
  try {
    asked = new URL(option.trim().split(/\s*,\s*/)[0]!);
    configured = new URL(partnerUrl);
  } catch {
    return null;
  }
  return asked.origin === configured.origin && !asked.username && !asked.password ? asked.href : null;
}
