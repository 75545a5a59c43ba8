import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { consumeLineChanges } from "../../src/api/vendors/projection/consume";
import type { LineChangesMessage } from "../../src/api/vendors/projection/messages";
import { readCertificate, readPrivateKey, type SigningIdentity } from "../../src/operator/edi/as2/cms";
import { buildMdn, readMdn } from "../../src/operator/edi/as2/mdn";
import { sealMessage } from "../../src/operator/edi/as2/message";
import { buildEntity, parseEntity } from "../../src/operator/edi/as2/mime";
import { ACKNOWLEDGMENT_OVERDUE_EVENT, alertOverdueAcknowledgments, ediHousekeeping } from "../../src/operator/edi/housekeeping";
import { retryUnapplied, takeInbound } from "../../src/operator/edi/intake";
import { readOrderChange } from "../../src/operator/edi/mapping/order-change";
import { readPurchaseOrder } from "../../src/operator/edi/mapping/purchase-order";
import { listOutbound, readOutbound } from "../../src/operator/edi/outbound/outbox";
import { partnerOr404 } from "../../src/operator/edi/partners/partners";
import { asyncReceiptUrl } from "../../src/operator/edi/transport/as2-route";
import { as2MessageId, ourMessage, sentMicOf } from "../../src/operator/edi/transport/as2-send";
import { ASYNC_MDN_WAIT_MS, sendWaiting } from "../../src/operator/edi/transport/deliver";
import { element } from "../../src/operator/edi/x12/elements";
import { readX12 } from "../../src/operator/edi/x12/reader";
import { sha256Hex } from "../../src/platform/sha256";
import { partnerToken } from "../../src/shared/auth/partner-tokens";
import { call, json, operatorTokenFor, TENANT_A, tokenFor, vendorTokenFor } from "../helpers/api";
import { contractCall } from "../helpers/contract";
import { orderOfOneVendor, partnerFile, partnerInput, set855, set856, set997, unique } from "../helpers/edi";
import { readOrder } from "../helpers/orders";
import { eventuallyFound } from "../helpers/platform";
import { RECEIVER, type Received, receivedAt } from "../helpers/webhooks";

/**
 * The X12 transports end to end (docs/edi.md, "The mailbox", docs/as2.md, "The endpoint" and "Sending"): a partner's
 * interchanges in over the mailbox and AS2, recorded, acknowledged and applied to the vendor API as the partner's own
 * client; our 997s and 850s out through the partner's outbox, fetched from the mailbox or sent over AS2 to a simulated
 * partner server (vitest.config.mts, receiver.example.com/as2-partner), which opens them with its key.
 */

const MAILBOX = "/vendor/api/edi/partners";

async function addPartner(vendorId: number, overrides: Record<string, unknown> = {}) {
  const res = await call(await operatorTokenFor(), "/admin/api/edi-partners", {
    method: "POST",
    json: { vendorId, ...partnerInput(overrides) },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json(res)).data as { id: number; partnerIdentity: { id: string }; clientId: string };
}

/**
 * A vendor's 850s go to its first partner that takes them (src/operator/edi/outbound/handoff.ts): the partners earlier
 * tests made for the vendor stop taking them, so the next one made does.
 */
const retireOrderPartners = (vendorId: number) =>
  env.DB.prepare(`UPDATE edi_partners SET documents = '["855","856","810"]' WHERE vendor_id = ?`).bind(vendorId).run();

const postInbound = async (vendorId: number, partnerId: number, text: string, token?: string) =>
  contractCall(token ?? (await vendorTokenFor(vendorId)), `${MAILBOX}/${partnerId}/inbound`, {
    method: "POST",
    headers: { "Content-Type": "application/edi-x12" },
    body: text,
  });

/** The environment the operator plane's EDI code runs with: the API Worker behind API, tokens for partners' clients. */
const ediEnv = (overrides: Record<string, unknown> = {}) => ({
  ...env,
  API: { fetch: (input: RequestInfo | URL, init?: RequestInit) => SELF.fetch(new Request(input, init)) },
  PARTNER_TOKENS: { partnerToken: (partnerId: number) => partnerToken(env, partnerId) },
  ...overrides,
});

/**
 * A partner's sealed message posted to /as2 as its AS2 client would: its names, a new Message-ID, a signed MDN asked
 * for (optionally), and the entity's own headers.
 */
async function postPartnerMessage(as2To: string, entity: ReturnType<typeof parseEntity>, extra: Record<string, string> = {}) {
  const messageId = `<${crypto.randomUUID()}@supplier.example>`;
  const headers = new Headers({
    "AS2-Version": "1.2",
    "AS2-From": as2To,
    "AS2-To": "MEDPARTS",
    "Message-ID": messageId,
    "Disposition-Notification-To": "edi@supplier.example",
    "Disposition-Notification-Options": "signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, sha-256",
    ...extra,
  });
  for (const [name, value] of entity.headers.fields) headers.set(name, value);
  return { res: await call(null, "/as2", { method: "POST", headers, body: entity.body }), messageId };
}

const partnerIdentity = (): SigningIdentity => ({
  certificate: readCertificate(env.TEST_AS2_PARTNER_CERTIFICATE),
  privateKey: readPrivateKey(env.TEST_AS2_PARTNER_KEY),
});
const ourCertificate = () => readCertificate(env.AS2_CERTIFICATE);

const documentsIn = async (partnerId: number) => (await listOutbound(env.IMPORTS, partnerId)).documents;

describe("the mailbox: a partner without AS2 posts its interchanges and takes ours", () => {
  it("an 855 posted is applied as the partner's client and answered with a 997 in the outbox; taken once; the same file again is a duplicate", async () => {
    const order = await orderOfOneVendor(1, 1);
    const [lineId] = order.lineIds as [number];
    const partner = await addPartner(order.vendorId);
    const text = partnerFile([set855(order.orderNumber, [{ lineId, quantity: 1, price: order.prices[0]!, code: "IA" }])], {
      senderId: partner.partnerIdentity.id,
    });

    const res = await postInbound(order.vendorId, partner.id, text);
    expect(res.status, await res.clone().text()).toBe(200);
    const [result] = (await json(res)).data.interchanges;
    expect(result).toMatchObject({ outcome: "received", applied: true, sets: [{ set: "855", outcome: "applied", messages: [] }] });
    expect((await readOrder(order.orderNumber)).lineItems[0].confirmationCode).toBe("IA");

    const listed = await contractCall(await vendorTokenFor(order.vendorId), `${MAILBOX}/${partner.id}/outbound`);
    const { items, cursor } = (await json(listed)).data;
    expect(cursor).toBeNull();
    expect(items).toEqual([expect.objectContaining({ controlNumber: 1, document: "997" })]);
    const document = await contractCall(await vendorTokenFor(order.vendorId), `${MAILBOX}/${partner.id}/outbound/1`);
    expect(document.headers.get("Content-Type")).toBe("application/edi-x12");
    const ack = await document.text();
    expect(ack).toBe(result.acknowledgment);
    const segments = readX12(ack).interchanges[0]!.groups[0]!.sets[0]!.segments;
    expect(element(segments.find((segment) => segment.id === "AK9")!, 1)).toBe("A");

    const token = await vendorTokenFor(order.vendorId);
    expect((await contractCall(token, `${MAILBOX}/${partner.id}/outbound/1`, { method: "DELETE" })).status).toBe(204);
    expect((await contractCall(token, `${MAILBOX}/${partner.id}/outbound/1`, { method: "DELETE" })).status).toBe(204);
    expect((await json(await contractCall(token, `${MAILBOX}/${partner.id}/outbound`))).data.items).toEqual([]);
    expect((await contractCall(token, `${MAILBOX}/${partner.id}/outbound/2`, { method: "DELETE" })).status).toBe(404);

    const again = await postInbound(order.vendorId, partner.id, text);
    expect((await json(again)).data.interchanges).toEqual([
      { outcome: "duplicate", interchangeControl: result.interchangeControl, acknowledgment: result.acknowledgment },
    ]);
    // Nothing new in the outbox: the duplicate's answer is the first one, already taken.
    expect((await json(await contractCall(token, `${MAILBOX}/${partner.id}/outbound`))).data.items).toEqual([]);
  });

  it("a test partner's interchanges (ISA15 T) are checked and acknowledged, never applied: a live line stays as it was", async () => {
    const order = await orderOfOneVendor(1, 1);
    const [lineId] = order.lineIds as [number];
    const partner = await addPartner(order.vendorId, { usage: "test" });
    const line = { lineId, quantity: 1, price: order.prices[0]!, code: "IA" };
    const text = partnerFile([set855(order.orderNumber, [line]), set855(order.orderNumber, [{ ...line, code: "ZZ" }])], {
      senderId: partner.partnerIdentity.id,
      usage: "T",
    });
    const res = await postInbound(order.vendorId, partner.id, text);
    const [result] = (await json(res)).data.interchanges;
    expect(result).toMatchObject({ outcome: "received", applied: true });
    expect(result.sets.map((set: { outcome: string }) => set.outcome)).toEqual(["checked", "refused"]);
    expect(result.sets[1].messages.join()).toContain("ZZ");
    expect((await readOrder(order.orderNumber)).lineItems[0].confirmationCode ?? null).not.toBe("IA");
    expect(readX12(result.acknowledgment).interchanges[0]!.usage).toBe("T");
  });

  it("is the partner's vendor's only: another vendor's token gets a 404, an AS2 partner's mailbox a 409, another sender is refused", async () => {
    const partner = await addPartner(1);
    const other = await addPartner(1);
    for (const path of [`${MAILBOX}/${partner.id}/outbound`, `${MAILBOX}/${partner.id}/outbound/1`]) {
      expect((await contractCall(await vendorTokenFor(2), path)).status).toBe(404);
    }
    const foreign = await postInbound(2, partner.id, partnerFile([set855("MP-0", [])], { senderId: partner.partnerIdentity.id }));
    expect(foreign.status).toBe(404);

    // The file's sender is the other partner of the same vendor: refused, nothing recorded.
    const res = await postInbound(1, partner.id, partnerFile([set855("MP-0", [])], { senderId: other.partnerIdentity.id }));
    expect(res.status).toBe(200);
    expect((await json(res)).data.interchanges).toEqual([
      { outcome: "refused", reason: `No production partner sends as ZZ/${other.partnerIdentity.id}.` },
    ]);
    const notX12 = await postInbound(1, partner.id, "Hello, this is not X12.");
    expect((await json(notX12)).data.interchanges[0].outcome).toBe("refused");

    const as2 = await addPartner(1, {
      transport: {
        kind: "as2",
        url: `${RECEIVER}/as2-partner/${unique()}`,
        as2From: "MEDPARTS",
        as2To: `SUPPLIER-${unique()}`,
        partnerCertificate: env.TEST_AS2_PARTNER_CERTIFICATE,
      },
    });
    expect((await contractCall(await vendorTokenFor(1), `${MAILBOX}/${as2.id}/outbound`)).status).toBe(409);
  });
});

describe("AS2: POST /as2 and what we send", () => {
  async function as2Partner(vendorId: number, path = "as2-partner", mdn: "sync" | "async" = "sync") {
    const as2To = `SUPPLIER-${unique()}`;
    const url = `${RECEIVER}/${path}/${unique()}`;
    const partner = await addPartner(vendorId, {
      transport: { kind: "as2", url, as2From: "MEDPARTS", as2To, partnerCertificate: env.TEST_AS2_PARTNER_CERTIFICATE, mdn },
    });
    return { ...partner, as2To, url };
  }

  /** A message of the partner's (signed with its key, encrypted for us unless `encrypt` is false), posted to /as2. */
  async function postAs2(as2To: string, text: string, { signer = partnerIdentity(), sign = true, encrypt = true } = {}) {
    const sealed = await sealMessage(
      { content: new TextEncoder().encode(text), mediaType: "application/edi-x12" },
      { ...(sign ? { signer } : {}), ...(encrypt ? { encryptFor: ourCertificate() } : {}) },
    );
    const { res, messageId } = await postPartnerMessage(as2To, parseEntity(sealed.entity));
    return { res, messageId, mic: sealed.mic };
  }

  async function mdnOf(sent: Awaited<ReturnType<typeof postAs2>>) {
    expect(sent.res.status).toBe(200);
    const body = new Uint8Array(await sent.res.arrayBuffer());
    return readMdn(buildEntity([["Content-Type", sent.res.headers.get("Content-Type")!]], body), {
      originalMessageId: sent.messageId,
      sentMic: sent.mic,
      partnerCertificate: ourCertificate(),
    });
  }

  it("a partner's signed and encrypted 855: a signed MDN with the MIC, the line confirmed, our 997 sent back over AS2 and taken", async () => {
    const order = await orderOfOneVendor(1, 1);
    const [lineId] = order.lineIds as [number];
    const partner = await as2Partner(order.vendorId);
    const text = partnerFile([set855(order.orderNumber, [{ lineId, quantity: 1, price: order.prices[0]!, code: "IA" }])], {
      senderId: partner.partnerIdentity.id,
    });
    const sent = await postAs2(partner.as2To, text);
    // Counted against the partner's client's bucket, as its vendor API calls are.
    expect(sent.res.headers.get("RateLimit-Limit")).toMatch(/^\d+$/);
    const mdn = await mdnOf(sent);
    expect(mdn).toMatchObject({ processed: true, signed: true });
    expect((await readOrder(order.orderNumber)).lineItems[0].confirmationCode).toBe("IA");

    // Our 997 went to the partner's AS2 URL (opened there with its key), and left the outbox on its processed MDN. (The
    // order's own 850 may have gone too: its lines reached the vendor's queue after the partner was made; the two sends
    // may overlap and send the 997 twice, as the same message: one Message-ID, which AS2 partners take once.)
    const delivered = (await receivedAt(new URL(partner.url).pathname)).filter((request) => request.body.includes("ST*997*"));
    expect(delivered.length).toBeGreaterThanOrEqual(1);
    const isa13 = readX12(delivered[0]!.body).interchanges[0]!.controlNumber;
    expect(new Set(delivered.map((request) => request.headers["message-id"]))).toEqual(new Set([as2MessageId(partner.id, isa13)]));
    expect(new Set(delivered.map((request) => request.body)).size).toBe(1);
    expect(delivered[0]!.headers["as2-to"]).toBe(partner.as2To);
    const acknowledgment = readX12(delivered[0]!.body).interchanges[0]!;
    expect(acknowledgment.groups[0]!.sets.map((set) => set.id)).toEqual(["997"]);
    expect((await listOutbound(env.IMPORTS, partner.id)).documents).toEqual([]);
  });

  it("refuses what it cannot trust with an MDN that says why; nobody's message gets no MDN", async () => {
    const partner = await as2Partner(1);
    const text = partnerFile([set855("MP-0", [])], { senderId: partner.partnerIdentity.id });
    const unsigned = await mdnOf(await postAs2(partner.as2To, text, { sign: false }));
    expect(unsigned).toMatchObject({ processed: false, modifier: "insufficient-message-security" });
    const stranger: SigningIdentity = await import("../../src/operator/edi/as2/certificates").then((m) =>
      m.createSelfSignedIdentity("Someone else"),
    );
    const forged = await mdnOf(await postAs2(partner.as2To, text, { signer: stranger }));
    expect(forged).toMatchObject({ processed: false, modifier: "authentication-failed" });
    const notX12 = await mdnOf(await postAs2(partner.as2To, "not X12 at all"));
    expect(notX12).toMatchObject({ processed: false, modifier: "unexpected-processing-error" });

    const unknown = await postAs2(`NOBODY-${unique()}`, text);
    expect(unknown.res.status).toBe(403);
    expect(unknown.res.headers.get("Content-Type")).toMatch(/^text\/plain/);
  });

  it("an order for an AS2 partner's vendor: its 850 is sent over AS2 when the order is placed, and taken on the MDN", async () => {
    const probe = await orderOfOneVendor(1, 1);
    await retireOrderPartners(probe.vendorId);
    const partner = await as2Partner(probe.vendorId);
    const order = await orderOfOneVendor(1, 1, probe.vendorId);
    const delivered = await eventuallyFound(
      async () =>
        (await receivedAt(new URL(partner.url).pathname)).find((request) => {
          const { order: sent } = readPurchaseOrder(readX12(request.body).interchanges[0]!.groups[0]!.sets[0]!);
          return sent.lines.map((line) => line.lineNumber).join() === order.lineIds.join();
        }),
      "the 850 over AS2",
    );
    expect(delivered.headers["as2-to"]).toBe(partner.as2To);
    expect((await listOutbound(env.IMPORTS, partner.id)).documents).toEqual([]);
  });

  it("a refused MDN leaves the 850 waiting in the outbox", async () => {
    const probe = await orderOfOneVendor(1, 1);
    await retireOrderPartners(probe.vendorId);
    const partner = await as2Partner(probe.vendorId, "as2-partner/refuse");
    await orderOfOneVendor(1, 1, probe.vendorId);
    await eventuallyFound(async () => (await receivedAt(new URL(partner.url).pathname))[0], "the 850's attempt");
    const waiting = (await listOutbound(env.IMPORTS, partner.id)).documents;
    expect(waiting.length).toBeGreaterThan(0);
    expect(new Set(waiting.map((document) => document.document))).toEqual(new Set(["850"]));
  });
  it("a partner whose MDNs are asynchronous: the 850 waits for its MDN, sent again only after the wait, taken by the MDN posted to /as2", async () => {
    const probe = await orderOfOneVendor(1, 1);
    await retireOrderPartners(probe.vendorId);
    const partner = await as2Partner(probe.vendorId, "as2-partner/async", "async");
    const order = await orderOfOneVendor(1, 1, probe.vendorId);
    const path = new URL(partner.url).pathname;
    // Earlier tests' orders of the vendor may still be on their way to its newest partner: this order's 850 is ours.
    const isOurs = (request: Received) =>
      readPurchaseOrder(readX12(request.body).interchanges[0]!.groups[0]!.sets[0]!)
        .order.lines.map((line) => line.lineNumber)
        .join() === order.lineIds.join();
    const first = await eventuallyFound(async () => (await receivedAt(path)).find(isOurs), "the 850 over AS2");
    const messageId = first.headers["message-id"]!;
    const sendsOfIt = async () => (await receivedAt(path)).filter((request) => request.headers["message-id"] === messageId);
    expect(first.headers["receipt-delivery-option"]).toBe(new URL("/as2", env.ISSUER).href);
    const controlNumber = ourMessage(messageId)!.controlNumber;
    const waitingOfIt = async () =>
      (await listOutbound(env.IMPORTS, partner.id)).documents.filter((document) => document.controlNumber === Number(controlNumber));
    expect(await waitingOfIt()).toMatchObject([{ document: "850" }]);
    const readPartner = () => partnerOr404(env.DB, partner.id);

    // Awaiting its MDN: not sent again now, sent again (the same Message-ID) once the wait has passed. The delivery that
    // sent it records the wait after the partner's answer: a send before that record is a race of this test (CI found it).
    await eventuallyFound(
      () =>
        env.DB.prepare(
          "SELECT mdn_awaited_at FROM edi_interchanges WHERE partner_id = ? AND interchange_control = ? AND mdn_awaited_at IS NOT NULL",
        )
          .bind(partner.id, Number(controlNumber))
          .first(),
      "the 850 recorded as awaiting its MDN",
    );
    await sendWaiting(ediEnv() as never, await readPartner());
    expect(await sendsOfIt()).toHaveLength(1);
    await sendWaiting(ediEnv() as never, await readPartner(), 50, new Date(Date.now() + ASYNC_MDN_WAIT_MS + 60_000));
    const requests = await sendsOfIt();
    expect(requests).toHaveLength(2);

    const postMdn = (mdn: { headers: Record<string, string>; body: Uint8Array }) =>
      call(null, "/as2", {
        method: "POST",
        headers: {
          ...mdn.headers,
          "AS2-From": partner.as2To,
          "AS2-To": "MEDPARTS",
          "Message-ID": `<${crypto.randomUUID()}@supplier.example>`,
        },
        body: mdn.body,
      });
    const recorded = { headers: requests[0]!.mdn!.headers, body: Uint8Array.from(atob(requests[0]!.mdn!.body), (c) => c.charCodeAt(0)) };
    // An MDN signed by another key than the partner's is refused; the 850 still waits.
    const forged = parseEntity(
      await buildMdn({
        ourAs2Name: "MEDPARTS",
        originalMessageId: requests[0]!.headers["message-id"]!,
        outcome: { processed: true },
        mic: await sentMicOf({ controlNumber, text: requests[0]!.body }),
        signer: { certificate: ourCertificate(), privateKey: readPrivateKey(env.AS2_PRIVATE_KEY) },
      }),
    );
    const refused = await postMdn({ headers: Object.fromEntries(forged.headers.fields), body: forged.body });
    expect(refused.status, await refused.clone().text()).toBe(400);
    expect(await waitingOfIt()).toHaveLength(1);

    // The partner's MDN refusing it: still waiting, and due again at once.
    const refusal = parseEntity(
      await buildMdn({
        ourAs2Name: "MEDPARTS",
        originalMessageId: messageId,
        outcome: { processed: false, failure: "decryption-failed", explanation: "refused by the partner" },
        signer: partnerIdentity(),
      }),
    );
    const answered = await postMdn({ headers: Object.fromEntries(refusal.headers.fields), body: refusal.body });
    expect([answered.status, await answered.text()]).toEqual([200, expect.stringContaining("will be sent again")]);
    await sendWaiting(ediEnv() as never, await readPartner());
    expect(await sendsOfIt()).toHaveLength(3);

    // The partner's MDN (of the first send: a resend has the same MIC) takes it; the same MDN again is answered the same.
    const taken = await postMdn(recorded);
    expect(taken.status, await taken.clone().text()).toBe(200);
    expect(await waitingOfIt()).toEqual([]);
    const again = await postMdn(recorded);
    expect([again.status, await again.text()]).toEqual([200, await taken.text()]);
  });
});

describe("the 850 out, the mailbox's way", () => {
  it("an order placed for a mailbox partner's vendor: its 850 waits in the outbox, its PO1s the order's line ids", async () => {
    const probe = await orderOfOneVendor(1, 1);
    await retireOrderPartners(probe.vendorId);
    const partner = await addPartner(probe.vendorId);
    const order = await orderOfOneVendor(2, 1, probe.vendorId);
    // Earlier tries (orders with other vendors' lines too) may have sent 850s of their own: this order's is among them.
    const lineIds = order.lineIds.map(String);
    const sent = await eventuallyFound(async () => {
      for (const document of (await listOutbound(env.IMPORTS, partner.id)).documents) {
        expect(document.document).toBe("850");
        const text = await readOutbound(env.IMPORTS, partner.id, document.controlNumber);
        const { order: placed } = readPurchaseOrder(readX12(text!).interchanges[0]!.groups[0]!.sets[0]!);
        if (placed.lines.map((line) => line.lineNumber).join() === lineIds.join()) return placed;
      }
      return null;
    }, "the 850 in the outbox");
    expect(sent.poNumber).toBe("PO-2024-0001");
    expect(sent.lines.map((line) => line.lineNumber)).toEqual(lineIds);

    // The partner's 997 of it: recorded onto our 850 (accepted), and not acknowledged in turn.
    const documents = (await listOutbound(env.IMPORTS, partner.id)).documents;
    let acknowledged = 0;
    for (const document of documents) {
      const ours = readX12((await readOutbound(env.IMPORTS, partner.id, document.controlNumber))!).interchanges[0]!;
      const group = ours.groups[0]!;
      const ack = set997({
        functionalId: group.functionalId,
        controlNumber: group.controlNumber,
        sets: [{ id: "850", controlNumber: group.sets[0]!.controlNumber }],
      });
      const res = await postInbound(probe.vendorId, partner.id, partnerFile([ack], { senderId: partner.partnerIdentity.id }));
      const [result] = (await json(res)).data.interchanges;
      expect(result).toMatchObject({ outcome: "received", acknowledgment: null, sets: [], applied: true });
      acknowledged++;
    }
    const statuses = await env.DB.prepare(
      "SELECT acknowledgment_status AS status FROM edi_interchanges WHERE partner_id = ? AND sent_at IS NOT NULL",
    )
      .bind(partner.id)
      .all<{ status: string }>();
    expect(statuses.results.map((row) => row.status)).toEqual(Array(acknowledged).fill("accepted"));
  });
});

describe("order changes out", () => {
  it("a buyer cancelling a line of an order sent to an 860 partner: an 860 deleting that line waits in the outbox", async () => {
    const probe = await orderOfOneVendor(1, 1);
    await retireOrderPartners(probe.vendorId);
    const partner = await addPartner(probe.vendorId, { orderChanges: "860", documents: ["850", "860", "855", "856", "810"] });
    const order = await orderOfOneVendor(2, 1, probe.vendorId);
    const [kept, cancelled] = order.lineIds;
    await eventuallyFound(
      async () => (await documentsIn(partner.id)).find((d) => d.reference.includes(`:${order.orderNumber}:`)),
      "the 850",
    );
    const res = await call(await tokenFor(TENANT_A), `/orders/${order.orderNumber}/cancel`, {
      method: "POST",
      json: { lineIds: [cancelled], reason: "No longer needed" },
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const change = await eventuallyFound(
      async () => (await documentsIn(partner.id)).find((d) => d.document === "860" && d.reference.includes(`:${order.orderNumber}:`)),
      "the 860",
    );
    expect(change.reference).toBe(`860:${TENANT_A}:${order.orderNumber}:${probe.vendorId}:${cancelled}`);
    const group = readX12((await readOutbound(env.IMPORTS, partner.id, change.controlNumber))!).interchanges[0]!.groups[0]!;
    expect(group.functionalId).toBe("PC");
    const read = readOrderChange(group.sets[0]!);
    expect(read).toMatchObject({ purpose: "04", poNumber: "PO-2024-0001" });
    expect(read.lines.map((line) => [line.lineNumber, line.change, line.quantityLeft])).toEqual([[String(cancelled), "DI", "0"]]);
    expect(read.lines.map((line) => line.lineNumber)).not.toContain(String(kept));
  });
});

describe("applied once, whatever fails on the way", () => {
  it("a file received while its partner's client cannot act is kept and applied by the housekeeping, once", async () => {
    const order = await orderOfOneVendor(1, 1);
    const [lineId] = order.lineIds as [number];
    const partner = await addPartner(order.vendorId);
    const text = partnerFile([set855(order.orderNumber, [{ lineId, quantity: 1, price: order.prices[0]!, code: "IA" }])], {
      senderId: partner.partnerIdentity.id,
    });
    // The token service fails (as a crash before applying would leave it): received, answered, not applied.
    const [first] = await takeInbound(ediEnv({ PARTNER_TOKENS: { partnerToken: async () => null } }), text, { partnerIds: [partner.id] });
    expect(first).toMatchObject({ outcome: "received", applied: false, sets: [] });
    expect((await readOrder(order.orderNumber)).lineItems[0].confirmationCode).not.toBe("IA");
    const kept = await env.DB.prepare(
      "SELECT file_key AS fileKey FROM edi_received_interchanges WHERE partner_id = ? AND applied_at IS NULL",
    )
      .bind(partner.id)
      .first<{ fileKey: string }>();
    expect(await env.IMPORTS.head(kept!.fileKey)).not.toBeNull();

    // Not yet due: the housekeeping leaves it for a partner's own retry.
    await retryUnapplied(ediEnv(), new Date());
    expect((await readOrder(order.orderNumber)).lineItems[0].confirmationCode).not.toBe("IA");
    expect(await retryUnapplied(ediEnv(), new Date(Date.now() + 6 * 60_000))).toBeGreaterThanOrEqual(1);
    expect((await readOrder(order.orderNumber)).lineItems[0].confirmationCode).toBe("IA");
    expect(await env.IMPORTS.head(kept!.fileKey)).toBeNull();
    const applied = await env.DB.prepare("SELECT applied_at AS at FROM edi_received_interchanges WHERE partner_id = ?")
      .bind(partner.id)
      .first<{ at: string | null }>();
    expect(applied!.at).not.toBeNull();
    // The one 997 it owed, once, though the interchange was taken in twice.
    expect((await listOutbound(env.IMPORTS, partner.id)).documents.map((document) => document.document)).toEqual(["997"]);
  });

  it("a partner's interchanges apply in the order received: an 856 behind an 855 not applied yet waits, then both apply in turn", async () => {
    const order = await orderOfOneVendor(1, 2);
    const [lineId] = order.lineIds as [number];
    const partner = await addPartner(order.vendorId);
    const sender = { senderId: partner.partnerIdentity.id };
    const ack = partnerFile([set855(order.orderNumber, [{ lineId, quantity: 2, price: order.prices[0]!, code: "IA" }])], sender);
    const ship = partnerFile([set856(order.orderNumber, `1ZORDER${unique()}`, [{ lineId, quantity: 2 }])], sender);
    const failing = ediEnv({ PARTNER_TOKENS: { partnerToken: async () => null } });
    expect(await takeInbound(failing, ack, { partnerIds: [partner.id] })).toMatchObject([{ outcome: "received", applied: false }]);
    // The 856 arrives while the 855 waits: it waits too, rather than being refused for a line not yet acknowledged.
    expect(await takeInbound(ediEnv(), ship, { partnerIds: [partner.id] })).toMatchObject([
      { outcome: "received", applied: false, sets: [] },
    ]);
    expect((await readOrder(order.orderNumber)).lineItems[0].statusName).toBe("Ordered");
    // The partner sends the 855 again: it applies, then the 856 behind it.
    const [again] = await takeInbound(ediEnv(), ack, { partnerIds: [partner.id] });
    expect(again).toMatchObject({ outcome: "received", applied: true, sets: [{ set: "855", outcome: "applied" }] });
    const line = (await readOrder(order.orderNumber)).lineItems[0];
    expect([line.statusName, line.confirmationCode]).toEqual(["Shipped", "IA"]);
    const unapplied = await env.DB.prepare(
      "SELECT count(*) AS n FROM edi_received_interchanges WHERE partner_id = ? AND applied_at IS NULL",
    )
      .bind(partner.id)
      .first<{ n: number }>();
    expect(unapplied!.n).toBe(0);
  });

  it("a file a crash left kept with nothing to apply (a duplicate posted once, a file never recorded) is deleted by the housekeeping", async () => {
    const order = await orderOfOneVendor(1, 1);
    const [lineId] = order.lineIds as [number];
    const partner = await addPartner(order.vendorId);
    const text = partnerFile([set855(order.orderNumber, [{ lineId, quantity: 1, price: order.prices[0]!, code: "IA" }])], {
      senderId: partner.partnerIdentity.id,
    });
    const [first] = await takeInbound(ediEnv(), text, { partnerIds: [partner.id] });
    expect(first).toMatchObject({ outcome: "received", applied: true });
    // What takeInbound puts first and deletes last, left by a crash in between: the applied file posted again, and a
    // file whose interchange was never recorded.
    const applied = `edi/inbound/${await sha256Hex(text)}`;
    const unrecorded = `edi/inbound/${await sha256Hex(`${text} `)}`;
    await env.IMPORTS.put(applied, text);
    await env.IMPORTS.put(unrecorded, `${text} `);
    // One waiting to be applied stays.
    const waiting = partnerFile([set855(order.orderNumber, [{ lineId, quantity: 1, price: order.prices[0]!, code: "IA" }])], {
      senderId: partner.partnerIdentity.id,
    });
    await takeInbound(ediEnv({ PARTNER_TOKENS: { partnerToken: async () => null } }), waiting, { partnerIds: [partner.id] });
    const waitingKey = `edi/inbound/${await sha256Hex(waiting)}`;

    await retryUnapplied(ediEnv({ PARTNER_TOKENS: { partnerToken: async () => null } }), new Date());
    expect(await env.IMPORTS.head(applied)).not.toBeNull();
    await retryUnapplied(ediEnv({ PARTNER_TOKENS: { partnerToken: async () => null } }), new Date(Date.now() + 6 * 60_000));
    expect(await env.IMPORTS.head(applied)).toBeNull();
    expect(await env.IMPORTS.head(unrecorded)).toBeNull();
    expect(await env.IMPORTS.head(waitingKey)).not.toBeNull();
  });
});

describe("the housekeeping", () => {
  it("sends again what an AS2 partner refused once its URL is right, and tells the operator once of an 850 not acknowledged in time", async () => {
    const probe = await orderOfOneVendor(1, 1);
    await retireOrderPartners(probe.vendorId);
    const as2To = `SUPPLIER-${unique()}`;
    const refusing = `${RECEIVER}/as2-partner/refuse/${unique()}`;
    const transport = { kind: "as2", url: refusing, as2From: "MEDPARTS", as2To, partnerCertificate: env.TEST_AS2_PARTNER_CERTIFICATE };
    const partner = await addPartner(probe.vendorId, { transport, acknowledgmentWindowMinutes: 5 });
    await orderOfOneVendor(1, 1, probe.vendorId);
    await eventuallyFound(async () => (await receivedAt(new URL(refusing).pathname))[0], "the refused attempt");
    const waiting = (await listOutbound(env.IMPORTS, partner.id)).documents;
    expect(waiting.length).toBeGreaterThan(0);

    const accepting = `${RECEIVER}/as2-partner/${unique()}`;
    const replaced = await call(await operatorTokenFor(), `/admin/api/edi-partners/${partner.id}`, {
      method: "PUT",
      json: partnerInput({
        partnerIdentity: partner.partnerIdentity,
        transport: { ...transport, url: accepting },
        acknowledgmentWindowMinutes: 5,
      }),
    });
    expect(replaced.status).toBe(200);
    // The housekeeping sends what waits (an order of the loop above may still be on its way: it is sent at the next run).
    await eventuallyFound(async () => {
      await ediHousekeeping(ediEnv(), new Date());
      return (await listOutbound(env.IMPORTS, partner.id)).documents.length === 0;
    }, "the outbox sent");
    expect((await receivedAt(new URL(accepting).pathname)).length).toBeGreaterThanOrEqual(waiting.length);

    // Nothing acknowledged the 850s: six minutes on, the window of five has passed.
    const later = new Date(Date.now() + 6 * 60_000);
    const told = await alertOverdueAcknowledgments(env, later);
    expect(told).toBeGreaterThanOrEqual(waiting.length);
    expect(await alertOverdueAcknowledgments(env, later)).toBe(0);
    const events = (await json(await call(await operatorTokenFor(), "/admin/api/events?limit=100"))).data.items as {
      type: string;
      data: { partnerId: number };
    }[];
    const overdue = events.filter((event) => event.type === ACKNOWLEDGMENT_OVERDUE_EVENT && event.data.partnerId === partner.id);
    const sent = await env.DB.prepare("SELECT count(*) AS n FROM edi_interchanges WHERE partner_id = ? AND sent_at IS NOT NULL")
      .bind(partner.id)
      .first<number>("n");
    expect(sent).toBeGreaterThanOrEqual(waiting.length);
    expect(overdue).toHaveLength(sent!);
  });
});

describe("the mailbox takes hostile and malformed files without failing", () => {
  const publicFiles = import.meta.glob<string>("../../../shared/test-data/x12/**/*.edi", { query: "?raw", import: "default", eager: true });

  /** The file as if this partner sent it to us: ISA06 its id, ISA08 ours, ISA15 P (when the ISA is the fixed 106 characters). */
  function asPartner(text: string, partnerId: string): string {
    const start = text.indexOf("ISA");
    if (start === -1 || text.length < start + 106) return text;
    const isa = text.slice(start, start + 106);
    const separator = isa[3]!;
    const fields = isa.split(separator);
    if (fields.length !== 17 || fields[6]!.length !== 15) return text;
    fields[6] = partnerId.padEnd(15);
    fields[8] = "MEDPARTS".padEnd(15);
    fields[15] = "P";
    return text.slice(0, start) + fields.join(separator) + text.slice(start + 106);
  }

  it("every public X12 file, as it is and as the partner's: a 200 naming each interchange's outcome, never a failure", async () => {
    const partner = await addPartner(1, { documents: ["855", "856", "810", "832"] });
    const token = await vendorTokenFor(1);
    const names = Object.keys(publicFiles);
    expect(names.length).toBeGreaterThan(40);
    for (const name of names) {
      for (const text of [publicFiles[name]!, asPartner(publicFiles[name]!, partner.partnerIdentity.id)]) {
        const res = await postInbound(1, partner.id, text, token);
        expect(res.status, name).toBe(200);
        for (const result of (await json(res)).data.interchanges) {
          expect(["received", "duplicate", "refused"], name).toContain(result.outcome);
        }
      }
    }
  });

  it("huge counts, colliding separators and bytes that are not text: refused or acknowledged, in bounded time", async () => {
    const partner = await addPartner(1);
    const token = await vendorTokenFor(1);
    const isa = partnerFile([set855("MP-0", [])], { senderId: partner.partnerIdentity.id }).slice(0, 106);
    const hostile = [
      `${isa}\n${"GS*PR*A*B*20260101*1200*1*X*004010~\n".repeat(2_000)}`,
      `${isa}\n${"ST*855*0001~\n".repeat(50_000)}`,
      isa.replaceAll("*", "~"),
      `${isa.slice(0, 104)}*~~`,
      "\u0000".repeat(10_000),
      "ISA".repeat(100_000),
    ];
    for (const text of hostile) {
      const res = await postInbound(1, partner.id, text, token);
      expect(res.status).toBe(200);
      const { interchanges } = (await json(res)).data;
      expect(interchanges.length).toBeGreaterThan(0);
    }
    const tooLarge = await call(token, `${MAILBOX}/${partner.id}/inbound`, {
      method: "POST",
      headers: { "Content-Type": "application/edi-x12" },
      body: "x".repeat(16 * 1024 * 1024 + 1),
    });
    expect(tooLarge.status).toBe(413);
  });
});

describe("the vendor-lines consumer's handoff", () => {
  /** A queue message as the runtime hands it, its ack and retry recorded. */
  function messageOf(body: LineChangesMessage, attempts: number) {
    const calls: { ack: number; retry: ({ delaySeconds?: number } | undefined)[] } = { ack: 0, retry: [] };
    const message = {
      id: crypto.randomUUID(),
      timestamp: new Date(),
      attempts,
      body,
      ack: () => void calls.ack++,
      retry: (options?: { delaySeconds?: number }) => void calls.retry.push(options),
    };
    return { message, calls };
  }

  it("retries a failed handoff with a growing delay (the projection applied at once), and acks once it is taken", async () => {
    const probe = await orderOfOneVendor(1, 1);
    await addPartner(probe.vendorId);
    const body: LineChangesMessage = { tenantId: 1, vendorId: probe.vendorId, changes: [] };
    const down = { fetch: async () => new Response("unavailable", { status: 503 }) } as unknown as Fetcher;
    for (const [attempts, delay] of [
      [1, 30],
      [3, 120],
      [12, 3600],
    ] as const) {
      const { message, calls } = messageOf(body, attempts);
      await consumeLineChanges({ queue: "medparts-vendor-lines", messages: [message] } as unknown as MessageBatch<LineChangesMessage>, {
        ...env,
        ADMIN: down,
      });
      expect(calls).toEqual({ ack: 0, retry: [{ delaySeconds: delay }] });
    }
    const up = { fetch: async () => Response.json({ partnerId: null, documents: [] }) } as unknown as Fetcher;
    const { message, calls } = messageOf(body, 4);
    await consumeLineChanges({ queue: "medparts-vendor-lines", messages: [message] } as unknown as MessageBatch<LineChangesMessage>, {
      ...env,
      ADMIN: up,
    });
    expect(calls).toEqual({ ack: 1, retry: [] });
  });
});

describe("asynchronous MDNs", () => {
  it("a message asking for its MDN at the partner's own host gets an empty 200, and the signed MDN posted there; another host gets it in the response", async () => {
    const order = await orderOfOneVendor(1, 1);
    const [lineId] = order.lineIds as [number];
    const as2To = `SUPPLIER-${unique()}`;
    const partner = await addPartner(order.vendorId, {
      transport: {
        kind: "as2",
        url: `${RECEIVER}/as2-partner/${unique()}`,
        as2From: "MEDPARTS",
        as2To,
        partnerCertificate: env.TEST_AS2_PARTNER_CERTIFICATE,
      },
    });
    const text = partnerFile([set855(order.orderNumber, [{ lineId, quantity: 1, price: order.prices[0]!, code: "IA" }])], {
      senderId: partner.partnerIdentity.id,
    });
    const sealed = await sealMessage(
      { content: new TextEncoder().encode(text), mediaType: "application/edi-x12" },
      { signer: partnerIdentity(), encryptFor: ourCertificate() },
    );
    const entity = parseEntity(sealed.entity);
    const send = (receiptTo: string) => postPartnerMessage(as2To, entity, { "Receipt-Delivery-Option": receiptTo });

    const mdnPath = `/ok/${crypto.randomUUID()}`;
    const asynchronous = await send(`${RECEIVER}${mdnPath}`);
    expect(asynchronous.res.status).toBe(200);
    expect(await asynchronous.res.text()).toBe("");
    const [posted] = await eventuallyFound(async () => {
      const received = await receivedAt(mdnPath);
      return received.length > 0 ? received : null;
    }, "the asynchronous MDN");
    const mdn = await readMdn(buildEntity([["Content-Type", posted!.headers["content-type"]!]], new TextEncoder().encode(posted!.body)), {
      originalMessageId: asynchronous.messageId,
      sentMic: sealed.mic,
      partnerCertificate: ourCertificate(),
    });
    expect(mdn).toMatchObject({ processed: true, signed: true });
    expect((await readOrder(order.orderNumber)).lineItems[0].confirmationCode).toBe("IA");

    // Another host than the partner's: the MDN comes back in the response, and nothing is posted there.
    const elsewhere = await send(`https://elsewhere.example.com/mdn`);
    expect(elsewhere.res.headers.get("Content-Type")).toMatch(/^multipart\/signed/);
    expect(asyncReceiptUrl("https://elsewhere.example.com/mdn", "https://receiver.example.com/as2")).toBeNull();
    expect(asyncReceiptUrl("https://user:pw@receiver.example.com/mdn", "https://receiver.example.com/as2")).toBeNull();
    expect(asyncReceiptUrl("not a url", "https://receiver.example.com/as2")).toBeNull();
    expect(asyncReceiptUrl("https://receiver.example.com/mdn", "https://receiver.example.com/as2")).toBe(
      "https://receiver.example.com/mdn",
    );
  });
});
