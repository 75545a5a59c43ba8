import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { EVENT_RETENTION_DAYS } from "../../src/api/events/types";
import type { DeliveryMessage } from "../../src/api/webhooks/delivery";
import { EVENTS_QUEUE } from "../../src/api/webhooks/queues";
import { generateDeviceIdentifiers, productId } from "../../src/dev/seed/catalog";
import { documentEndpointId, purgeSentDocuments, SENT_DOCUMENT_RETENTION_DAYS } from "../../src/operator/procurement/documents";
import { readXml } from "../../src/operator/procurement/xml";
import { GS } from "../../src/shared/udi/gs1";
import { call, json, operatorTokenFor, TENANT_A, tokenFor } from "../helpers/api";
import { backgroundSettled } from "../helpers/background";
import { invoiceBody } from "../helpers/invoices";
import { freshOrder, issueQuote, JSMITH, withoutFields } from "../helpers/orders";
import { connect, connectionMapping, find, orderRequest, postCxml, requestDocument } from "../helpers/procurement";
import { storeRows } from "../helpers/stores";
import { move, tomorrow, vendorCall, vendorOf } from "../helpers/vendors";
import { RECEIVER, receivedAt, receiverPath } from "../helpers/webhooks";
import worker from "../helpers/worker";

/**
 * Documents back to the suite: a connection with a documentUrl gets a ConfirmationRequest for each confirmation of a line,
 * a ShipNoticeRequest for each parcel and an InvoiceDetailRequest for each invoice of the orders its OrderRequests placed, through the webhook outbox (signed,
 * in order, retried), naming the suite's orderID and line numbers.
 */

async function placeThroughCxml(documentPath: string, index: number) {
  const connection = await connect(JSMITH, { extra: { documentUrl: `${RECEIVER}${documentPath}` } });
  const quote = await issueQuote(productId(index), JSMITH, withoutFields);
  const orderId = `PO-${crypto.randomUUID().slice(0, 8)}`;
  const line = { productId: quote.productId, priceOptionId: quote.priceOptionId, quantity: 2, price: quote.price.toFixed(2) };
  const answer = await postCxml(requestDocument(connection, orderRequest(orderId, [line]).replace('lineNumber="1"', 'lineNumber="10"')));
  expect(answer.code, answer.text).toBe(200);
  const orderNumber = /order (\S+) for orderID/.exec(answer.text)![1]!;
  await backgroundSettled();
  const order = await json(await call(await tokenFor(TENANT_A), `/orders/${orderNumber}?include=lineItems`));
  return { connection, orderId, orderNumber, lineId: order.data.lineItems[0].lineId as number, unitPriceCents: quote.priceCents };
}

/** One more attempt at a delivery, as the queue makes after a failure or the sweep after a lost message. */
async function deliverAgain(message: DeliveryMessage, attempts: number) {
  const batch = createMessageBatch(EVENTS_QUEUE, [{ id: crypto.randomUUID(), timestamp: new Date(), attempts, body: message }]);
  const ctx = createExecutionContext();
  await worker.queue!(batch, env as never, ctx);
  return getQueueResult(batch, ctx);
}

const documentsAt = async (path: string) =>
  (await receivedAt(path)).map((received) => ({ received, root: readXml(new TextEncoder().encode(received.body)) }));

describe("documents back to the suite", () => {
  it("a confirmation and a parcel of an OrderRequest's order reach the documentUrl as ConfirmationRequest and ShipNoticeRequest", async () => {
    const path = receiverPath("ok");
    const index = 21;
    const { orderId, orderNumber, lineId, unitPriceCents } = await placeThroughCxml(path, index);
    expect((await move(lineId, "acknowledge", { promisedShipDate: tomorrow() })).status).toBe(200);
    const gtin = generateDeviceIdentifiers(index)[0]!.deviceId;
    const units = [`]d201${gtin}17301231` + `10LOT-77${GS}21SN-001`, `]d201${gtin}17301231` + `10LOT-77${GS}21SN-002`];
    const shipped = await move(lineId, "ship", { trackingNumber: "1ZCXML0001", carrierName: "UPS", quantity: 2, units });
    expect(shipped.status, await shipped.clone().text()).toBe(200);
    await backgroundSettled();

    const documents = await documentsAt(path);
    expect(documents.map((d) => d.root.children.find((c) => c.name === "Request")!.children[0]!.name)).toEqual([
      "ConfirmationRequest",
      "ShipNoticeRequest",
    ]);
    const [confirmation, notice] = documents;
    expect(confirmation!.received.headers["content-type"]).toMatch(/^text\/xml/);
    expect(confirmation!.received.headers["medparts-signature"]).toBeDefined();
    const confirmationRequest = find(confirmation!.root, "Request", "ConfirmationRequest")!;
    expect(find(confirmationRequest, "ConfirmationHeader")!.attributes.type).toBe("accept");
    expect(find(confirmationRequest, "OrderReference")!.attributes.orderID).toBe(orderId);
    expect(find(confirmationRequest, "ConfirmationItem")!.attributes).toMatchObject({ lineNumber: "10", quantity: "2" });

    const shipNotice = find(notice!.root, "Request", "ShipNoticeRequest")!;
    expect(find(shipNotice, "ShipControl", "ShipmentIdentifier")!.text).toBe("1ZCXML0001");
    expect(find(shipNotice, "ShipControl", "CarrierIdentifier")!.text).toBe("UPS");
    const item = find(shipNotice, "ShipNoticePortion", "ShipNoticeItem")!;
    expect(item.attributes).toMatchObject({ lineNumber: "10", quantity: "2" });
    expect(find(item, "Batch", "SupplierBatchID")!.text).toBe("LOT-77");
    expect(find(item, "Batch")!.attributes.expirationDate).toBe("2030-12-31T00:00:00+00:00");
    expect(item.children.filter((c) => c.name === "AssetInfo").map((c) => c.attributes.serialNumber)).toEqual(["SN-001", "SN-002"]);

    // The vendor's invoice of the line: an InvoiceDetailRequest against the suite's line number, amounts as invoiced.
    const invoice = invoiceBody(orderNumber, [{ lineId, quantity: 2, unitPriceCents: unitPriceCents }]);
    const sent = await vendorCall(await vendorOf(lineId), "/invoices", { method: "POST", json: invoice });
    expect(sent.status, await sent.clone().text()).toBe(201);
    await backgroundSettled();
    const invoiceDocument = (await documentsAt(path)).at(-1)!;
    const detail = find(invoiceDocument.root, "Request", "InvoiceDetailRequest")!;
    expect(find(detail, "InvoiceDetailRequestHeader")!.attributes.invoiceID).toBe(invoice.invoiceNumber);
    expect(find(detail, "InvoiceDetailOrder", "InvoiceDetailOrderInfo", "OrderReference")!.attributes.orderID).toBe(orderId);
    expect(find(detail, "InvoiceDetailOrder", "InvoiceDetailItem", "InvoiceDetailItemReference")!.attributes.lineNumber).toBe("10");
    expect(find(detail, "InvoiceDetailSummary", "NetAmount", "Money")!.text).toBe(invoice.summary.total);
  });

  it("a retry sends the first attempt's document byte for byte, payloadID and timestamp included: suites de-duplicate on payloadID", async () => {
    const path = receiverPath("ok");
    const { connection, lineId } = await placeThroughCxml(path, 24);
    expect((await move(lineId, "acknowledge", { promisedShipDate: tomorrow() })).status).toBe(200);
    const shipped = await move(lineId, "ship", { trackingNumber: "1ZCXML0024", carrierName: "UPS", quantity: 2 });
    expect(shipped.status, await shipped.clone().text()).toBe(200);
    await backgroundSettled();
    const first = await receivedAt(path);
    expect(first).toHaveLength(2);
    const notice = first[1]!;
    expect(notice.body).toContain("<ShipNoticeRequest>");
    // The suite's 200 was lost: the delivery is made again, a second later (a rendering now would differ in both).
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const eventId = notice.headers["medparts-event-id"]!;
    const message = { eventId, endpointId: documentEndpointId(connection.id), storeTenantId: TENANT_A };
    expect((await deliverAgain(message, 2)).explicitAcks).toHaveLength(1);
    const again = (await receivedAt(path)).slice(2);
    expect(again.map((received) => received.headers["medparts-event-id"])).toEqual([eventId]);
    expect(again[0]!.body).toBe(notice.body);
  });

  it("sent documents are kept as long as the events they render, then purged", async () => {
    expect(SENT_DOCUMENT_RETENTION_DAYS).toBe(EVENT_RETENTION_DAYS);
    const now = new Date();
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
    const keep = (eventId: string, createdAt: string) =>
      env.DB.prepare("INSERT INTO procurement_sent_documents (connection_id, event_id, document, created_at) VALUES (0, ?, '<cXML/>', ?)")
        .bind(eventId, createdAt)
        .run();
    const [old, recent] = [crypto.randomUUID(), crypto.randomUUID()];
    await keep(old, daysAgo(EVENT_RETENTION_DAYS + 1));
    await keep(recent, daysAgo(EVENT_RETENTION_DAYS - 1));
    expect(await purgeSentDocuments(env.DB, now)).toBeGreaterThanOrEqual(1);
    const left = await env.DB.prepare("SELECT event_id FROM procurement_sent_documents WHERE event_id IN (?, ?)").bind(old, recent).all();
    expect(left.results).toEqual([{ event_id: recent }]);
  });

  it("a suite that refuses a document in its cXML Status (HTTP 200) is a failed delivery, retried", async () => {
    const path = `/cxml-refuse/${crypto.randomUUID()}`;
    const { connection, lineId } = await placeThroughCxml(path, 23);
    expect((await move(lineId, "acknowledge", { promisedShipDate: tomorrow() })).status).toBe(200);
    await backgroundSettled();
    expect(await receivedAt(path)).not.toEqual([]);
    const deliveries = await storeRows(
      TENANT_A,
      "SELECT outcome, error FROM webhook_deliveries WHERE endpoint_id = ?",
      `we_cxml_${connection.id}`,
    );
    expect(deliveries[0]).toMatchObject({ outcome: "failed", error: "cXML Status 406" });
  });

  it("orders not placed by the connection's OrderRequests send nothing to it; removing the documentUrl stops the documents", async () => {
    const path = receiverPath("ok");
    const { connection, lineId } = await placeThroughCxml(path, 22);
    // An order of the same tenant placed through the JSON API: the suite does not know it.
    const plain = await freshOrder(1);
    expect((await move(plain.lineIds[0]!, "acknowledge", { promisedShipDate: tomorrow() })).status).toBe(200);
    await backgroundSettled();
    expect(await receivedAt(path)).toEqual([]);
    const replaced = await call(await operatorTokenFor(), `/admin/api/procurement-connections/${connection.id}`, {
      method: "PUT",
      json: { ...connectionMapping(connection.buyer, JSMITH, "No documents"), documentUrl: null },
    });
    expect(replaced.status).toBe(200);
    expect(await storeRows(TENANT_A, "SELECT enabled FROM webhook_endpoints WHERE connection_id = ?", connection.id)).toEqual([
      { enabled: 0 },
    ]);
    expect((await move(lineId, "acknowledge", { promisedShipDate: tomorrow() })).status).toBe(200);
    await backgroundSettled();
    expect(await receivedAt(path)).toEqual([]);
  });
});
