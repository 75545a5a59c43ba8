import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { productId } from "../../src/dev/seed/catalog";
import { DESK_PRICE_FILE_MAX_BYTES } from "../../src/operator/desk/offers";
import { call, json, vendorTokenFor } from "../helpers/api";
import { csrfOf, desk, deskForm, deskSession } from "../helpers/desk";
import { eventuallyFound } from "../helpers/platform";

/**
 * The desk's offers and price files (docs/desk.md, "Offers and price files"): an admin lists and searches its offers
 * with the q language, changes one's price, lead time and stock, withdraws and publishes it again; uploads a price
 * file and follows it to its rejected rows. A desk user is refused; another vendor's admin sees none of it.
 */

const VENDOR = 3;
const OTHER = 2;

const offerOfVendor = async (sku: string, vendorId = VENDOR) =>
  (await json(await call(await vendorTokenFor(vendorId), `/vendor/api/offers/${sku}`))).data;

async function publishedOffer() {
  const sku = `DESK-${crypto.randomUUID().slice(0, 8)}`;
  const put = await call(await vendorTokenFor(VENDOR), `/vendor/api/offers/${sku}`, {
    method: "PUT",
    json: { productId: productId(7), condition: "Refurbished", purchaseChoice: "Buy", warranty: "6 months", price: 99.5, leadTimeDays: 4 },
  });
  expect(put.status, await put.clone().text()).toBe(201);
  return sku;
}

/** A multipart form post of the desk, as a browser sends a form with a file. */
const uploadForm = (session: string, fields: Record<string, string>, file: { name: string; text: string }) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set("file", new File([file.text], file.name, { type: "text/csv" }));
  return desk("/desk/price-files", { method: "POST", cookie: session, body: form });
};

describe("the order desk's offers", () => {
  it("an admin finds an offer with q, changes its price, lead time and stock, withdraws it and publishes it again", async () => {
    const sku = await publishedOffer();
    const { session, userId } = await deskSession(VENDOR, "admin");
    const listed = await desk(`/desk/offers?q=${encodeURIComponent(`sku:"${sku}"`)}`, { cookie: session });
    expect(listed.status).toBe(200);
    const list = await listed.text();
    expect(list).toContain("1 offer</caption>");
    expect(list).toContain(`<a href="/desk/offers/${sku}">${sku}</a>`);
    expect(list).toContain("99.50");
    // A q the language refuses says why.
    const refused = await desk(`/desk/offers?q=${encodeURIComponent("colour:red")}`, { cookie: session });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("That search was refused:");

    const page = await desk(`/desk/offers/${sku}`, { cookie: session });
    const csrf = (await csrfOf(page))!;
    const fields = {
      _csrf: csrf,
      price: "89.90",
      leadTimeDays: "2",
      quantityAvailable: "14",
      condition: "Refurbished",
      warranty: "12 months",
    };
    const saved = await deskForm(`/desk/offers/${sku}`, session, fields);
    expect([saved.status, saved.headers.get("Location")]).toEqual([303, `/desk/offers/${sku}?done=saved`]);
    const offer = await offerOfVendor(sku);
    expect(offer).toMatchObject({
      price: 89.9,
      leadTimeDays: 2,
      quantityAvailable: 14,
      warranty: "12 months",
      condition: "Refurbished",
      status: "active",
    });
    expect(Date.now() - Date.parse(offer.quantityCountedAt)).toBeLessThan(60_000);
    // What was typed wrong is named; the offer is unchanged.
    const wrong = await deskForm(`/desk/offers/${sku}`, session, { ...fields, price: "12.345", leadTimeDays: "soon" });
    expect(wrong.status).toBe(422);
    const text = await wrong.text();
    expect(text).toContain("The price must be an amount above 0");
    expect(text).toContain("The lead time is a whole number of days");
    expect((await offerOfVendor(sku)).price).toBe(89.9);

    const withdrawn = await deskForm(`/desk/offers/${sku}/withdraw`, session, { _csrf: csrf });
    expect(withdrawn.status).toBe(303);
    expect((await offerOfVendor(sku)).status).toBe("withdrawn");
    expect(await (await desk(`/desk/offers/${sku}`, { cookie: session })).text()).toContain("Publish again");
    expect((await deskForm(`/desk/offers/${sku}`, session, fields)).status).toBe(303);
    expect((await offerOfVendor(sku)).status).toBe("active");
    const audit = await env.DB.prepare("SELECT action FROM audit_log WHERE actor = ? ORDER BY id")
      .bind(`vendor_user:${userId}`)
      .all<{ action: string }>();
    expect(audit.results.map((row) => row.action)).toEqual(
      expect.arrayContaining(["desk_user.offer_published", "desk_user.offer_withdrawn"]),
    );
  });

  it("a desk user is refused the offers; another vendor's admin gets 404 for the offer and changes nothing", async () => {
    const sku = await publishedOffer();
    const deskUser = await deskSession(VENDOR, "desk");
    expect((await desk("/desk/offers", { cookie: deskUser.session })).status).toBe(403);
    expect((await desk(`/desk/offers/${sku}`, { cookie: deskUser.session })).status).toBe(403);
    const csrf = (await csrfOf(await desk("/desk", { cookie: deskUser.session })))!;
    expect((await deskForm(`/desk/offers/${sku}/withdraw`, deskUser.session, { _csrf: csrf })).status).toBe(403);

    const other = await deskSession(OTHER, "admin");
    const otherCsrf = (await csrfOf(await desk("/desk", { cookie: other.session })))!;
    expect((await desk(`/desk/offers/${sku}`, { cookie: other.session })).status).toBe(404);
    expect((await deskForm(`/desk/offers/${sku}/withdraw`, other.session, { _csrf: otherCsrf })).status).toBe(404);
    expect(
      (
        await deskForm(`/desk/offers/${sku}`, other.session, {
          _csrf: otherCsrf,
          price: "1.00",
          leadTimeDays: "1",
          condition: "X",
          warranty: "X",
        })
      ).status,
    ).toBe(404);
    expect(await (await desk("/desk/offers", { cookie: other.session })).text()).not.toContain(sku);
    expect(await offerOfVendor(sku)).toMatchObject({ price: 99.5, status: "active" });
  });
});

describe("the order desk's price files", () => {
  it("uploads a CSV: the job runs with its progress, the valid rows applied, the wrong one listed with its line and reason", async () => {
    const { session } = await deskSession(VENDOR, "admin");
    const csrf = (await csrfOf(await desk("/desk/price-files", { cookie: session })))!;
    const run = crypto.randomUUID().slice(0, 6).toUpperCase();
    const csv = [
      "sku,productId,condition,purchaseChoice,warranty,price,leadTimeDays",
      `PF-${run}-1,${productId(8)},New OEM,Buy,12 months,150.00,3`,
      `PF-${run}-2,${productId(9)},New OEM,Buy,12 months,not-a-price,3`,
      `PF-${run}-3,${productId(10)},Refurbished,Buy,6 months,75.25,5`,
    ].join("\n");
    const started = await uploadForm(session, { _csrf: csrf, onError: "skipFailedRows" }, { name: "spring prices.csv", text: csv });
    expect(started.status, await started.clone().text()).toBe(303);
    const jobPath = started.headers.get("Location")!;
    expect(jobPath).toMatch(/^\/desk\/price-files\/imp_[A-Za-z0-9]{20}$/);
    const running = await (await desk(jobPath, { cookie: session })).text();
    expect(running).toMatch(/<progress id="job-progress" max="100" value="\d+">/);

    const progress = await eventuallyFound(
      async () => {
        const body = (await (await desk(`${jobPath}/progress`, { cookie: session })).json()) as { done: boolean; state: string };
        return body.done ? body : null;
      },
      "the price file's job done",
      30_000,
    );
    expect(progress.state).toBe("succeeded");
    const done = await (await desk(jobPath, { cookie: session })).text();
    expect(done).toContain("succeeded: 2 created, 0 updated, 0 unchanged, 1 rejected of 3 read.");
    expect(done).toMatch(/<tr><td>3<\/td><td>[^<]*<\/td><td>price<\/td>/);
    expect((await offerOfVendor(`PF-${run}-1`)).price).toBe(150);
    expect((await offerOfVendor(`PF-${run}-3`)).price).toBe(75.25);
    // Listed among the latest price files.
    expect(await (await desk("/desk/price-files", { cookie: session })).text()).toContain(jobPath);

    // Another vendor's admin: the job is a 404, its progress too.
    const other = await deskSession(OTHER, "admin");
    expect((await desk(jobPath, { cookie: other.session })).status).toBe(404);
    expect((await desk(`${jobPath}/progress`, { cookie: other.session })).status).toBe(404);
  });

  it("refuses a file of another kind, and one over the desk's size limit before reading it", async () => {
    const { session } = await deskSession(VENDOR, "admin");
    const csrf = (await csrfOf(await desk("/desk/price-files", { cookie: session })))!;
    const wrongKind = await uploadForm(session, { _csrf: csrf }, { name: "prices.xlsx", text: "sku\n" });
    expect(wrongKind.status).toBe(422);
    expect(await wrongKind.text()).toContain("the file must end in .csv, .ndjson or .jsonl");
    const large = await uploadForm(session, { _csrf: csrf }, { name: "big.csv", text: "x".repeat(DESK_PRICE_FILE_MAX_BYTES + 100_000) });
    expect(large.status).toBe(413);
    expect(await large.text()).toContain("the file is larger than 20 MB");
  });
});
