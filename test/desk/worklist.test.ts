import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/platform/sha256";
import { json } from "../helpers/api";
import { csrfOf, desk, deskForm, deskSession } from "../helpers/desk";
import { gtinOfLine, orderOfOneVendor } from "../helpers/edi";
import { readOrder } from "../helpers/orders";
import { eventuallyFound } from "../helpers/platform";
import { storeRowsById } from "../helpers/stores";
import { vendorCall } from "../helpers/vendors";

/**
 * The desk's worklist and a line's moves (docs/desk.md, "The worklist"): the vendor's lines through the vendor API as
 * the signed-in user, newest first with counts per state; confirm, backorder and reject as forms with the session's
 * CSRF token, each in the audit log with the user; another vendor's user sees nothing of them.
 */

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe("the order desk's worklist", () => {
  it("shows the vendor's new lines newest first with counts per state; a line confirmed from its page, audited with the user", async () => {
    const order = await orderOfOneVendor(2, 1);
    const { session, userId } = await deskSession(order.vendorId);
    // The vendor's lines reach its projection through a queue: the new order shows within seconds.
    const page = await eventuallyFound(async () => {
      const res = await desk("/desk", { cookie: session });
      expect(res.status).toBe(200);
      const text = await res.text();
      return text.includes(order.orderNumber) ? text : null;
    }, "the new order in the worklist");
    expect(page).toMatch(/<span class="count" data-status="Ordered">\d+<\/span> To confirm/);
    const rows = [...page.matchAll(/<td><a href="\/desk\/orders\/(ORD-[^"]+)">/g)].map((match) => match[1]);
    expect(rows[0]).toBe(order.orderNumber);

    const [lineId, other] = order.lineIds as [number, number];
    const linePage = await desk(`/desk/lines/${lineId}`, { cookie: session });
    expect(linePage.status).toBe(200);
    const csrf = await csrfOf(linePage);
    const confirmed = await deskForm(`/desk/lines/${lineId}/acknowledge`, session, { _csrf: csrf!, promisedShipDate: isoDay(3) });
    expect([confirmed.status, confirmed.headers.get("Location")]).toEqual([303, `/desk/lines/${lineId}?done=acknowledge`]);
    expect(await (await desk(confirmed.headers.get("Location")!, { cookie: session })).text()).toContain("Done: the line is confirmed.");
    const line = (await readOrder(order.orderNumber)).lineItems.find((l: { lineId: number }) => l.lineId === lineId);
    expect(line.statusName).toBe("Acknowledged");
    const audit = await env.DB.prepare("SELECT action, after FROM audit_log WHERE actor = ? ORDER BY id")
      .bind(`vendor_user:${userId}`)
      .all<{ action: string; after: string }>();
    expect(audit.results.map((row) => row.action)).toContain("desk_user.line_acknowledge");

    // A reject without a reason is the vendor API's refusal, shown on the page; the line stays as it was.
    const refused = await deskForm(`/desk/lines/${other}/reject`, session, { _csrf: csrf!, reason: "" });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain("Not done:");
    expect((await readOrder(order.orderNumber)).lineItems.find((l: { lineId: number }) => l.lineId === other).statusName).toBe("Ordered");
    // Without the CSRF token: refused before anything.
    expect((await deskForm(`/desk/lines/${other}/reject`, session, { reason: "No stock" })).status).toBe(403);
  });

  it("ships a confirmed line from its page with scanned UDIs (one label a line), their lots and serials kept; a label of another product is refused", async () => {
    const order = await orderOfOneVendor(1, 2);
    const [lineId] = order.lineIds as [number];
    const { session } = await deskSession(order.vendorId);
    const csrf = await csrfOf(await desk(`/desk/lines/${lineId}`, { cookie: session }));
    expect((await deskForm(`/desk/lines/${lineId}/acknowledge`, session, { _csrf: csrf!, promisedShipDate: isoDay(2) })).status).toBe(303);
    const page = await (await desk(`/desk/lines/${lineId}`, { cookie: session })).text();
    expect(page).toContain('<textarea id="units" name="units"');
    const gtin = await gtinOfLine(lineId);
    const wrong = await deskForm(`/desk/lines/${lineId}/ship`, session, {
      _csrf: csrf!,
      trackingNumber: "1ZDESK0000001",
      units: "(01)00000000000000\n",
    });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain("Not done:");
    const scans = `(01)${gtin}(17)301231(10)DESKLOT(21)DESK-SN-1\r\n\r\n  (01)${gtin}(17)301231(10)DESKLOT(21)DESK-SN-2  \r\n`;
    const shipped = await deskForm(`/desk/lines/${lineId}/ship`, session, {
      _csrf: csrf!,
      trackingNumber: "1ZDESK0000001",
      carrierName: "UPS",
      units: scans,
    });
    expect([shipped.status, shipped.headers.get("Location")]).toEqual([303, `/desk/lines/${lineId}?done=ship`]);
    expect((await readOrder(order.orderNumber)).lineItems[0].statusName).toBe("Shipped");
    const units = await storeRowsById(lineId, "SELECT lot, serial FROM shipped_units WHERE line_id = ? ORDER BY serial", lineId);
    expect(units).toEqual([
      { lot: "DESKLOT", serial: "DESK-SN-1" },
      { lot: "DESKLOT", serial: "DESK-SN-2" },
    ]);
  });

  it("confirms a line with any X12 855 code: a price change (IP) waits for the buyer; one without its price is refused with the reason", async () => {
    const order = await orderOfOneVendor(1, 1);
    const [lineId] = order.lineIds as [number];
    const { session } = await deskSession(order.vendorId);
    const page = await desk(`/desk/lines/${lineId}`, { cookie: session });
    const html = await page.clone().text();
    expect(html).toContain('<option value="IP">IP: Item accepted, price changed</option>');
    const csrf = await csrfOf(page);
    const missing = await deskForm(`/desk/lines/${lineId}/confirm`, session, { _csrf: csrf!, code: "IP", promisedShipDate: isoDay(3) });
    expect(missing.status).toBe(422);
    expect(await missing.text()).toContain("Not done:");
    const sent = await deskForm(`/desk/lines/${lineId}/confirm`, session, {
      _csrf: csrf!,
      code: "IP",
      // An increase past any tenant's tolerance: it waits for the buyer (a decrease would apply at once).
      unitPrice: `${Math.ceil(Number(order.prices[0])) * 3 + 10}.00`,
      promisedShipDate: isoDay(3),
      reason: "Manufacturer price change",
    });
    expect([sent.status, sent.headers.get("Location")]).toEqual([303, `/desk/lines/${lineId}?done=confirm`]);
    const after = await (await desk(sent.headers.get("Location")!, { cookie: session })).text();
    expect(after).toContain("Done: the confirmation is sent.");
    // The line as the vendor API lists it comes from the vendor's projection: the proposal shows within seconds.
    await eventuallyFound(async () => {
      const text = await (await desk(`/desk/lines/${lineId}`, { cookie: session })).text();
      return text.includes("the IP change waits for the buyer") ? text : null;
    }, "the pending IP change on the line page");
  });

  it("the worklist's live counts: a new line counts within seconds; the page's polling never keeps an idle session alive", async () => {
    const { vendorId } = await orderOfOneVendor(1, 1);
    const { session } = await deskSession(vendorId);
    const countsNow = async () => {
      const res = await desk("/desk/counts", { cookie: session });
      expect(res.status).toBe(200);
      return ((await res.json()) as { counts: Record<string, number> }).counts;
    };
    const before = await countsNow();
    expect(Object.keys(before).sort()).toEqual(["Acknowledged", "Backordered", "Ordered", "Shipped", "invoices", "returns"]);
    await orderOfOneVendor(1, 1, vendorId);
    await eventuallyFound(async () => ((await countsNow()).Ordered! > before.Ordered! ? true : null), "the new line counted");
    const worklist = await (await desk("/desk", { cookie: session })).text();
    expect(worklist).toContain('data-live="/desk/counts"');
    expect(worklist).toContain('<script src="/desk/assets/desk.js" defer></script>');

    const idHash = await sha256Hex(session);
    const fiveMinutesAgo = new Date(Date.now() - 5 * 60_000).toISOString();
    await env.DB.prepare("UPDATE desk_sessions SET last_seen_at = ? WHERE id_hash = ?").bind(fiveMinutesAgo, idHash).run();
    await countsNow();
    const lastSeen = () =>
      env.DB.prepare("SELECT last_seen_at AS at FROM desk_sessions WHERE id_hash = ?").bind(idHash).first<{ at: string }>();
    expect((await lastSeen())!.at).toBe(fiveMinutesAgo);
    await desk("/desk", { cookie: session });
    expect((await lastSeen())!.at > fiveMinutesAgo).toBe(true);
    // Signed out: a problem, not a page.
    expect((await desk("/desk/counts")).status).toBe(401);
  });

  it("searches the lines with the q language; a query the language refuses is shown with its reason", async () => {
    const order = await orderOfOneVendor(1, 3);
    const [lineId] = order.lineIds as [number];
    const { session } = await deskSession(order.vendorId);
    const { partNumber } = (await json(await vendorCall(order.vendorId, `/order-lines/${lineId}`))).data as { partNumber: string };
    const q = `partNumber:"${partNumber}" AND quantity:3`;
    const found = await eventuallyFound(async () => {
      const text = await (await desk(`/desk?q=${encodeURIComponent(q)}`, { cookie: session })).text();
      return text.includes(`href="/desk/lines/${lineId}"`) ? text : null;
    }, "the line found by q");
    const parts = [...found.matchAll(/<td>([^<]+)<br><small>/g)].map((match) => match[1]);
    expect(parts.length).toBeGreaterThan(0);
    expect(new Set(parts)).toEqual(new Set([partNumber]));
    expect(found).toContain(`value="${q.replaceAll('"', "&quot;")}"`);
    const other = await (
      await desk(`/desk?q=${encodeURIComponent(`partNumber:"${partNumber}" AND quantity:4`)}`, { cookie: session })
    ).text();
    expect(other).not.toContain(`href="/desk/lines/${lineId}"`);
    const refused = await desk(`/desk?q=${encodeURIComponent("colour:red")}`, { cookie: session });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("That search was refused: Unknown field");
  });

  it("another vendor's user sees nothing of the lines: not in its worklist, its line page a 404, its moves refused", async () => {
    const order = await orderOfOneVendor(1, 1);
    const [lineId] = order.lineIds as [number];
    const otherVendor = order.vendorId === 2 ? 3 : 2;
    const { session } = await deskSession(otherVendor);
    const page = await (await desk("/desk", { cookie: session })).text();
    expect(page).not.toContain(order.orderNumber);
    const linePage = await desk(`/desk/lines/${lineId}`, { cookie: session });
    expect(linePage.status).toBe(404);
    const csrf = await csrfOf(await desk("/desk", { cookie: session }));
    const moved = await deskForm(`/desk/lines/${lineId}/acknowledge`, session, { _csrf: csrf!, promisedShipDate: isoDay(3) });
    expect(moved.status).toBe(404);
    expect((await readOrder(order.orderNumber)).lineItems[0].statusName).toBe("Ordered");
  });
});
