import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  creditField,
  creditMemoDraft,
  type InvoiceView,
  invoiceDraft,
  invoiceField,
  returnStepBody,
} from "../../src/operator/desk/documents";
import type { DeskLine } from "../../src/operator/desk/vendor-work";
import { textToCents } from "../../src/platform/money";

/** The desk's invoice and credit memo forms as vendor API bodies (docs/desk.md, "Invoices"): exact cents, errors named. */

const line = (lineId: number, lineNumber: number, price: number, shipped: number) =>
  ({ lineId, lineNumber, price, shippedQuantity: shipped, quantity: shipped, partNumber: `P-${lineNumber}` }) as DeskLine;

const fieldsOf = (values: Record<string, string>) => (name: string) => values[name] ?? "";

describe("the desk's invoice form", () => {
  it("bills the ticked lines at the quantities and prices typed; the amounts and summary add up exactly", () => {
    const lines = [line(11, 1, 19.99, 3), line(12, 2, 1667.66, 1), line(13, 3, 5, 2)];
    const draft = invoiceDraft(
      "ORD-1",
      lines,
      fieldsOf({
        invoiceNumber: "INV-7",
        invoiceDate: "2026-12-01",
        [invoiceField(11, "bill")]: "on",
        [invoiceField(11, "quantity")]: "3",
        [invoiceField(11, "unitPrice")]: "19.99",
        [invoiceField(11, "tax")]: "4.80",
        [invoiceField(12, "bill")]: "on",
        [invoiceField(12, "quantity")]: "1",
        [invoiceField(12, "unitPrice")]: "1667.66",
        freight: "15",
      }),
    );
    expect(draft.errors).toEqual([]);
    expect(draft.body).toEqual({
      invoiceNumber: "INV-7",
      orderNumber: "ORD-1",
      invoiceDate: "2026-12-01",
      currency: "USD",
      lines: [
        { lineId: 11, partNumber: "P-1", quantity: 3, unitPrice: "19.99", amount: "59.97", tax: "4.80" },
        { lineId: 12, partNumber: "P-2", quantity: 1, unitPrice: "1667.66", amount: "1667.66", tax: "0.00" },
      ],
      summary: { subtotal: "1727.63", tax: "4.80", freight: "15.00", total: "1747.43" },
    });
  });

  it("names what was typed wrong, by line, and sends nothing", () => {
    const lines = [line(11, 1, 19.99, 3)];
    const draft = invoiceDraft(
      "ORD-1",
      lines,
      fieldsOf({
        [invoiceField(11, "bill")]: "on",
        [invoiceField(11, "quantity")]: "0",
        [invoiceField(11, "unitPrice")]: "19.999",
        [invoiceField(11, "tax")]: "-1",
        freight: "1,50",
      }),
    );
    expect(draft.body).toBeNull();
    expect(draft.errors).toEqual([
      "Line 1: the quantity must be a whole number from 1.",
      "Line 1: the unit price must be an amount like 120.00.",
      "Line 1: the tax must be an amount like 9.60, or empty.",
      "The freight must be an amount like 15.00, or empty.",
      "The invoice number is required: letters, digits and . _ / - (up to 40).",
    ]);
    expect(invoiceDraft("ORD-1", lines, fieldsOf({ invoiceNumber: "A" })).errors).toEqual(["Tick at least one line to bill."]);
  });

  it("property: whatever the lines, the summary is the exact sum of the lines in cents", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            cents: fc.integer({ min: 0, max: 10_000_000 }),
            quantity: fc.integer({ min: 1, max: 99_999 }),
            tax: fc.integer({ min: 0, max: 100_000 }),
          }),
          { minLength: 1, maxLength: 20 },
        ),
        (typed) => {
          const lines = typed.map((_, i) => line(100 + i, i + 1, 1, 1));
          const values: Record<string, string> = { invoiceNumber: "INV-P" };
          typed.forEach((t, i) => {
            values[invoiceField(100 + i, "bill")] = "on";
            values[invoiceField(100 + i, "quantity")] = String(t.quantity);
            values[invoiceField(100 + i, "unitPrice")] = (t.cents / 100).toFixed(2);
            values[invoiceField(100 + i, "tax")] = (t.tax / 100).toFixed(2);
          });
          const body = invoiceDraft("ORD-P", lines, fieldsOf(values)).body as {
            lines: { amount: string; tax: string }[];
            summary: { subtotal: string; tax: string; total: string };
          };
          const sum = (key: "amount" | "tax") => body.lines.reduce((total, l) => total + textToCents(l[key])!, 0);
          expect(textToCents(body.summary.subtotal)).toBe(typed.reduce((s, t) => s + t.cents * t.quantity, 0));
          expect(textToCents(body.summary.subtotal)).toBe(sum("amount"));
          expect(textToCents(body.summary.tax)).toBe(sum("tax"));
          expect(textToCents(body.summary.total)).toBe(sum("amount") + sum("tax"));
        },
      ),
    );
  });
});

const invoice = {
  invoiceId: 9,
  kind: "invoice",
  lines: [
    { lineNumber: 1, quantity: 3, unitPrice: "19.99", amount: "59.97", tax: "1.00" },
    { lineNumber: 2, quantity: 1, unitPrice: "1667.66", amount: "1667.66", tax: "0.00" },
  ],
} as InvoiceView;

describe("the desk's credit memo form", () => {
  it("credits units at the invoice's unit price with the line's share of its tax, rounded half up", () => {
    const draft = creditMemoDraft(
      invoice,
      fieldsOf({ creditMemoNumber: "CM-1", creditDate: "2026-12-02", reason: "Damaged", [creditField(1, "quantity")]: "1" }),
    );
    expect(draft.body).toEqual({
      creditMemoNumber: "CM-1",
      invoiceId: 9,
      creditDate: "2026-12-02",
      currency: "USD",
      reason: "Damaged",
      lines: [{ invoiceLineNumber: 1, quantity: 1, unitPrice: "19.99", amount: "19.99", tax: "0.33" }],
      summary: { subtotal: "19.99", tax: "0.33", freight: "0.00", total: "20.32" },
    });
    // Two of three units: 2/3 of 1.00 is 0.666…, 0.67; all three credit the whole tax.
    const two = creditMemoDraft(invoice, fieldsOf({ creditMemoNumber: "CM-2", [creditField(1, "quantity")]: "2" })).body as {
      lines: { tax: string }[];
    };
    expect(two.lines[0]!.tax).toBe("0.67");
    const all = creditMemoDraft(invoice, fieldsOf({ creditMemoNumber: "CM-3", [creditField(1, "quantity")]: "3" })).body as {
      lines: { tax: string }[];
    };
    expect(all.lines[0]!.tax).toBe("1.00");
  });

  it("credits everything that remains without lines; refuses more units than the line has, or nothing at all", () => {
    expect(creditMemoDraft(invoice, fieldsOf({ creditMemoNumber: "CM-4", whole: "on" })).body).toMatchObject({
      creditMemoNumber: "CM-4",
      invoiceId: 9,
    });
    expect(creditMemoDraft(invoice, fieldsOf({ creditMemoNumber: "CM-4", whole: "on" })).body).not.toHaveProperty("lines");
    expect(creditMemoDraft(invoice, fieldsOf({ creditMemoNumber: "CM-5", [creditField(2, "quantity")]: "2" })).errors).toEqual([
      "Invoice line 2: credit a whole number of units, at most 1.",
    ]);
    expect(creditMemoDraft(invoice, fieldsOf({ creditMemoNumber: "CM-6" })).errors).toEqual([
      "Type the units to credit on a line, or tick “everything that remains”.",
    ]);
  });
});

describe("a return step's form", () => {
  it("sends only the fields the step takes and the user filled in", () => {
    const field = fieldsOf({ outcome: "refused", reason: "Cracked", rmaNumber: "RMA-1", price: "", withinFlatRate: "no" });
    expect(returnStepBody("receive", field)).toEqual({ outcome: "refused", reason: "Cracked" });
    expect(returnStepBody("diagnose", field)).toEqual({ withinFlatRate: false, reason: "Cracked" });
    expect(returnStepBody("authorize", field)).toEqual({ rmaNumber: "RMA-1" });
    expect(returnStepBody("diagnose", fieldsOf({}))).toEqual({ withinFlatRate: true });
  });
});
