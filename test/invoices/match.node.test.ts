import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addUp } from "../../src/api/invoices/documents";
import { type MatchedCreditLine, type MatchedInvoice, type MatchedOrderLine, matchInvoices } from "../../src/api/invoices/match";
import { creditOfLines, remainingOf } from "../../src/api/invoices/submit";
import { withinTolerance } from "../../src/api/purchasing/settings";
import { ValidationError } from "../../src/platform/errors";
import { centsToText, textToCents } from "../../src/platform/money";

/**
 * The exact arithmetic of invoices (docs/api.md, "Invoices"), held by properties over random documents: money strings
 * read and print back exactly, totals are the sums of their lines, credits never exceed what was invoiced, and a
 * three-way match is the same whatever the order in which invoices and credits arrive.
 */

const SETTINGS = { priceTolerance: { percentBp: 100, amountCents: null }, quantityTolerance: 0 };

describe("money strings", () => {
  it("print and read back exactly; more than two places, signs and float forms are refused", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 13 }), (cents) => {
        expect(textToCents(centsToText(cents))).toBe(cents);
      }),
    );
    for (const bad of ["1.234", "-1.00", "1e3", "01.00", " 1", "1.", ".5", "0x10", "Infinity"]) expect(textToCents(bad), bad).toBeNull();
    expect(textToCents("12.5")).toBe(1250);
    expect(textToCents("0.07")).toBe(7);
  });
});

const lineArbitrary = fc.record({
  quantity: fc.integer({ min: 1, max: 500 }),
  unitPriceCents: fc.integer({ min: 1, max: 5_000_000 }),
  taxCents: fc.integer({ min: 0, max: 100_000 }),
});

describe("an invoice's totals", () => {
  it("are the sums of its lines plus freight; any other summary is a 400 naming the field", () => {
    fc.assert(
      fc.property(
        fc.array(lineArbitrary, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 1, max: 99 }),
        (lines, freight, off) => {
          const input = lines.map((line) => ({
            quantity: line.quantity,
            unitPrice: centsToText(line.unitPriceCents),
            amount: centsToText(line.unitPriceCents * line.quantity),
            tax: centsToText(line.taxCents),
          }));
          const subtotal = lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
          const tax = lines.reduce((sum, line) => sum + line.taxCents, 0);
          const summary = {
            subtotal: centsToText(subtotal),
            tax: centsToText(tax),
            freight: centsToText(freight),
            total: centsToText(subtotal + tax + freight),
          };
          const { totals } = addUp(input, summary);
          expect(totals).toEqual({ subtotalCents: subtotal, taxCents: tax, freightCents: freight, totalCents: subtotal + tax + freight });
          const wrong = { ...summary, total: centsToText(subtotal + tax + freight + off) };
          expect(() => addUp(input, wrong)).toThrow(ValidationError);
          try {
            addUp(input, wrong);
          } catch (error) {
            expect(Object.keys((error as ValidationError).fieldErrors)).toEqual(["summary.total"]);
          }
        },
      ),
    );
  });
});

describe("credit memos", () => {
  it("never credit more than was invoiced, line by line, however they are split", () => {
    fc.assert(
      fc.property(
        fc.array(lineArbitrary, { minLength: 1, maxLength: 5 }),
        fc.array(
          fc.record({ line: fc.nat(), quantity: fc.integer({ min: 0, max: 600 }), taxCents: fc.integer({ min: 0, max: 120_000 }) }),
          {
            maxLength: 12,
          },
        ),
        (lines, attempts) => {
          const invoice = {
            id: 1,
            kind: "invoice",
            number: "INV-1",
            status: "matched",
            creditedInvoiceId: null,
            totalCents: 0,
            freightCents: 0,
            lines: lines.map((line, i) => ({
              lineNumber: i + 1,
              orderLineId: 10 + i,
              quantity: line.quantity,
              unitPriceCents: line.unitPriceCents,
              amountCents: line.unitPriceCents * line.quantity,
              taxCents: line.taxCents,
            })),
          };
          const documents: Parameters<typeof remainingOf>[1] = [invoice as never];
          for (const [n, attempt] of attempts.entries()) {
            const target = invoice.lines[attempt.line % invoice.lines.length]!;
            const amountCents = target.unitPriceCents * attempt.quantity || 1;
            const creditLine = {
              invoiceLineNumber: target.lineNumber,
              quantity: attempt.quantity,
              unitPrice: centsToText(target.unitPriceCents),
              amount: centsToText(amountCents),
              tax: centsToText(attempt.taxCents),
            };
            const summary = {
              subtotal: centsToText(amountCents),
              tax: centsToText(attempt.taxCents),
              freight: "0.00",
              total: centsToText(amountCents + attempt.taxCents),
            };
            let credit: ReturnType<typeof creditOfLines> | null = null;
            try {
              if (attempt.quantity === 0) throw new ValidationError({});
              credit = creditOfLines([creditLine], summary, remainingOf(invoice as never, documents));
            } catch (error) {
              expect(error).toBeInstanceOf(ValidationError);
            }
            if (credit) {
              documents.push({
                id: 100 + n,
                kind: "credit_memo",
                number: `CM-${n}`,
                status: "received",
                creditedInvoiceId: 1,
                totalCents: credit.totals.totalCents,
                freightCents: 0,
                lines: credit.lines.map((line) => ({ ...line, lineNumber: 1 })) as never,
              } as never);
            }
            for (const left of remainingOf(invoice as never, documents).lines) {
              expect(left.quantity).toBeGreaterThanOrEqual(0);
              expect(left.amountCents).toBeGreaterThanOrEqual(0);
              expect(left.taxCents).toBeGreaterThanOrEqual(0);
            }
          }
        },
      ),
    );
  });
});

describe("three-way match", () => {
  const orderLines = fc.array(
    fc.record({
      priceCents: fc.integer({ min: 100, max: 100_000 }),
      contract: fc.option(fc.integer({ min: 100, max: 100_000 }), { nil: null }),
      shippedQuantity: fc.integer({ min: 0, max: 20 }),
    }),
    { minLength: 1, maxLength: 4 },
  );

  it("is the same whatever the order in which the invoices and credit memos arrive", () => {
    fc.assert(
      fc.property(
        orderLines,
        fc.array(
          fc.array(
            fc.record({
              line: fc.nat({ max: 5 }),
              quantity: fc.integer({ min: 1, max: 15 }),
              priceDelta: fc.integer({ min: -200, max: 200 }),
            }),
            {
              minLength: 1,
              maxLength: 4,
            },
          ),
          { minLength: 1, maxLength: 5 },
        ),
        fc.array(fc.record({ invoice: fc.nat(), line: fc.nat(), quantity: fc.integer({ min: 0, max: 5 }) }), { maxLength: 5 }),
        fc.infiniteStream(fc.nat()),
        (lines, invoiceSpecs, creditSpecs, seeds) => {
          const ordered: MatchedOrderLine[] = lines.map((line, i) => ({
            id: i + 1,
            priceCents: line.priceCents,
            contractPriceCents: line.contract,
            shippedQuantity: line.shippedQuantity,
          }));
          const invoices: MatchedInvoice[] = invoiceSpecs.map((spec, i) => ({
            id: 100 + i,
            lines: spec.map((line, n) => {
              const target = ordered[line.line];
              return {
                lineNumber: n + 1,
                orderLineId: target ? target.id : null,
                quantity: line.quantity,
                unitPriceCents: Math.max(1, (target?.priceCents ?? 500) + line.priceDelta),
              };
            }),
          }));
          const credits: MatchedCreditLine[] = creditSpecs.map((spec) => {
            const invoice = invoices[spec.invoice % invoices.length]!;
            return { invoiceId: invoice.id, creditedLineNumber: (spec.line % invoice.lines.length) + 1, quantity: spec.quantity };
          });
          const shuffle = <T>(items: readonly T[]) => {
            const copy = [...items];
            for (let i = copy.length - 1; i > 0; i--) {
              const j = seeds.next().value % (i + 1);
              [copy[i], copy[j]] = [copy[j]!, copy[i]!];
            }
            return copy;
          };
          const first = matchInvoices("ORD-1", ordered, invoices, credits, SETTINGS);
          const second = matchInvoices("ORD-1", shuffle(ordered), shuffle(invoices), shuffle(credits), SETTINGS);
          for (const invoice of invoices) expect(second.get(invoice.id)).toEqual(first.get(invoice.id));
        },
      ),
    );
  });

  it("names the first rule a line fails: not on the order, above the contract price, price, quantity", () => {
    const ordered: MatchedOrderLine[] = [
      { id: 1, priceCents: 10_000, contractPriceCents: 10_000, shippedQuantity: 2 },
      { id: 2, priceCents: 5_000, contractPriceCents: null, shippedQuantity: 1 },
    ];
    const invoice = (lines: MatchedInvoice["lines"]): MatchedInvoice[] => [{ id: 1, lines }];
    const statusOf = (lines: MatchedInvoice["lines"]) =>
      matchInvoices("ORD-1", ordered, invoice(lines), [], SETTINGS)
        .get(1)!
        .map((l) => l.status);
    expect(statusOf([{ lineNumber: 1, orderLineId: null, quantity: 1, unitPriceCents: 1 }])).toEqual(["not_on_po"]);
    expect(statusOf([{ lineNumber: 1, orderLineId: 3, quantity: 1, unitPriceCents: 1 }])).toEqual(["not_on_po"]);
    expect(statusOf([{ lineNumber: 1, orderLineId: 1, quantity: 5, unitPriceCents: 10_001 }])).toEqual(["contract_price_exception"]);
    // 1% of 50.00 is 0.50: 50.50 is within, 50.51 is not.
    expect(statusOf([{ lineNumber: 1, orderLineId: 2, quantity: 1, unitPriceCents: 5_050 }])).toEqual(["matched"]);
    expect(statusOf([{ lineNumber: 1, orderLineId: 2, quantity: 1, unitPriceCents: 5_051 }])).toEqual(["price_variance"]);
    expect(statusOf([{ lineNumber: 1, orderLineId: 2, quantity: 2, unitPriceCents: 5_000 }])).toEqual(["quantity_variance"]);
    // Two lines of line 1 bill 3 of the 2 shipped: the one at the order's price is a quantity variance (the other's price
    // comes first); in either order of the lines.
    const lines = [
      { lineNumber: 1, orderLineId: 1, quantity: 1, unitPriceCents: 9_000 },
      { lineNumber: 2, orderLineId: 1, quantity: 2, unitPriceCents: 10_000 },
    ];
    expect(statusOf(lines)).toEqual(["price_variance", "quantity_variance"]);
    expect(statusOf([...lines].reverse())).toEqual(["quantity_variance", "price_variance"]);
  });

  it("tolerances: within both limits set, exact when none is", () => {
    expect(withinTolerance(0, 1000, { percentBp: null, amountCents: null })).toBe(true);
    expect(withinTolerance(1, 1000, { percentBp: null, amountCents: null })).toBe(false);
    expect(withinTolerance(10, 1000, { percentBp: 100, amountCents: null })).toBe(true);
    expect(withinTolerance(11, 1000, { percentBp: 100, amountCents: null })).toBe(false);
    expect(withinTolerance(10, 1000, { percentBp: 100, amountCents: 5 })).toBe(false);
    fc.assert(
      fc.property(
        fc.integer({ min: -10_000, max: 10_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        (diff, base, bp) => {
          const tolerance = { percentBp: bp, amountCents: null };
          expect(withinTolerance(diff, base, tolerance)).toBe(withinTolerance(-diff, base, tolerance));
        },
      ),
    );
  });
});
