import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { productId } from "../../src/dev/seed/catalog";
import { runs } from "../helpers/depth";
import { dispatch } from "../helpers/dispatch";
import { issueQuote, JSMITH, withoutFields } from "../helpers/orders";
import { CXML_URL, connect, orderRequest, requestDocument, setupRequest } from "../helpers/procurement";
import { countsInEveryStore } from "../helpers/stores";

/**
 * The cXML endpoint under malformed and mangled documents: valid OrderRequests and PunchOutSetupRequests cut short,
 * with bytes flipped, characters or markup inserted, elements repeated, entities and DOCTYPEs slipped in. Whatever
 * arrives, the answer is a cXML Response (HTTP 200, or 413 by size) and never a 5xx nor a cXML 500; an order is placed
 * only when the answer says 200, and nothing else is written.
 */

const NASTY = ["<", ">", "&", "&amp", "&lol;", "]]>", "<!--", "<![CDATA[", "\u0000", "\uFFFF", "<?xml?>", '"', "'", "&#0;", "&#x110000;"];

describe("the cXML endpoint under mangled documents", () => {
  it("answers every mangled document with a cXML Response and writes nothing but what a Status 200 says", async () => {
    const connection = await connect();
    const quote = await issueQuote(productId(13), JSMITH, withoutFields);
    const line = { productId: quote.productId, priceOptionId: quote.priceOptionId, quantity: 1, price: quote.price.toFixed(2) };
    const sources = [
      requestDocument(connection, orderRequest("PO-FUZZ-BASE", [line])),
      requestDocument(connection, setupRequest("create")),
      requestDocument(connection, setupRequest("edit", orderRequest("x", [line]).replace(/^<OrderRequest>|<\/OrderRequest>$/g, ""))),
    ];
    const mangle = fc.oneof(
      fc.record({ kind: fc.constant("cut"), at: fc.nat() }),
      fc.record({ kind: fc.constant("insert"), at: fc.nat(), text: fc.oneof(fc.constantFrom(...NASTY), fc.string({ maxLength: 8 })) }),
      fc.record({ kind: fc.constant("flip"), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
      fc.record({
        kind: fc.constant("repeat"),
        element: fc.constantFrom("Header", "Request", "ItemOut", "BuyerCookie", "OrderRequestHeader"),
      }),
      fc.record({
        kind: fc.constant("doctype"),
        subset: fc.constantFrom('<!ENTITY x "y">', '<!ENTITY % p SYSTEM "http://canary.medparts.invalid/">', ""),
      }),
    );
    const before = (await countsInEveryStore({ n: "SELECT count(*) AS n FROM orders" })).n;
    let placed = 0;
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: sources.length - 1 }), fc.array(mangle, { minLength: 1, maxLength: 3 }), async (which, changes) => {
        let bytes = new TextEncoder().encode(sources[which]!.replace("PO-FUZZ-BASE", `PO-FUZZ-${crypto.randomUUID().slice(0, 8)}`));
        for (const change of changes) {
          const at = "at" in change ? change.at % (bytes.length + 1) : 0;
          if (change.kind === "cut") bytes = bytes.slice(0, at);
          else if (change.kind === "insert")
            bytes = new Uint8Array([...bytes.slice(0, at), ...new TextEncoder().encode(change.text), ...bytes.slice(at)]);
          else if (change.kind === "flip" && bytes.length > 0) bytes[at % bytes.length] = change.byte;
          else if (change.kind === "repeat") {
            const text = new TextDecoder().decode(bytes);
            const element = new RegExp(`<${change.element}[\\s>][\\s\\S]*?</${change.element}>`).exec(text)?.[0] ?? "";
            bytes = new TextEncoder().encode(text.replace(element, element + element));
          } else if (change.kind === "doctype") {
            bytes = new TextEncoder().encode(
              new TextDecoder().decode(bytes).replace(/<!DOCTYPE cXML SYSTEM "[^"]*">/, `<!DOCTYPE cXML [${change.subset}]>`),
            );
          }
        }
        const res = await dispatch(CXML_URL, { method: "POST", headers: { "Content-Type": "text/xml" }, body: bytes });
        const body = await res.text();
        expect([200, 413], body).toContain(res.status);
        const code = Number(/<Status code="(\d+)"/.exec(body)?.[1]);
        expect([200, 400, 401, 406, 409, 413], body).toContain(code);
        if (code === 200 && body.includes("Medparts order")) placed += 1;
      }),
      { numRuns: runs({ quick: 60, deep: 400 }) },
    );
    const after = (await countsInEveryStore({ n: "SELECT count(*) AS n FROM orders" })).n;
    expect(after! - before!).toBe(placed);
  });
});
