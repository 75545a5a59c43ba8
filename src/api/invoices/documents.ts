import { ValidationError } from "../../platform/errors";
import { centsToText, textToCents } from "../../platform/money";

/**
 * The arithmetic of an invoice or credit memo as the vendor sends it (docs/api.md, "Invoices"): every amount a money
 * string, each line's amount its quantity times its unit price, and a summary whose subtotal, tax and total are the sums
 * of the lines plus freight. Nothing is rounded: a document that does not add up exactly is a 400 naming the field.
 */

export interface DocumentLineInput {
  quantity: number;
  unitPrice: string;
  amount: string;
  tax?: string | undefined;
}

export interface SummaryInput {
  subtotal: string;
  tax: string;
  freight: string;
  total: string;
}

export interface DocumentLine {
  quantity: number;
  unitPriceCents: number;
  amountCents: number;
  taxCents: number;
}

export interface DocumentTotals {
  subtotalCents: number;
  taxCents: number;
  freightCents: number;
  totalCents: number;
}

const cents = (value: string) => textToCents(value) ?? 0;

/**
 * The lines in cents, and the totals they add up to; every mismatch is listed, each under its field. A credit memo's line
 * of quantity 0 (`priceOnly`) credits its amount alone (a price correction): its amount is not a product.
 */
export function addUp(
  lines: readonly DocumentLineInput[],
  summary: SummaryInput,
  { priceOnly = false }: { priceOnly?: boolean } = {},
): { lines: DocumentLine[]; totals: DocumentTotals } {
  const errors: Record<string, string[]> = {};
  const inCents = lines.map((line, i) => {
    const unitPriceCents = cents(line.unitPrice);
    const amountCents = cents(line.amount);
    const expected = priceOnly && line.quantity === 0 ? amountCents : unitPriceCents * line.quantity;
    if (amountCents !== expected) {
      errors[`lines[${i}].amount`] = [`Must be quantity × unitPrice: ${line.quantity} × ${line.unitPrice} = ${centsToText(expected)}.`];
    }
    return { quantity: line.quantity, unitPriceCents, amountCents, taxCents: cents(line.tax ?? "0") };
  });
  const subtotalCents = inCents.reduce((sum, line) => sum + line.amountCents, 0);
  const taxCents = inCents.reduce((sum, line) => sum + line.taxCents, 0);
  const freightCents = cents(summary.freight);
  const totalCents = subtotalCents + taxCents + freightCents;
  const check = (field: keyof SummaryInput, expected: number, rule: string) => {
    if (cents(summary[field]) !== expected) errors[`summary.${field}`] = [`Must be ${rule}: ${centsToText(expected)}.`];
  };
  check("subtotal", subtotalCents, "the sum of the lines' amounts");
  check("tax", taxCents, "the sum of the lines' tax");
  check("total", totalCents, "subtotal + tax + freight");
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { lines: inCents, totals: { subtotalCents, taxCents, freightCents, totalCents } };
}
