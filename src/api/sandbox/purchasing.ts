import type { Database } from "../../db/client";
import { ProblemError } from "../../platform/errors";
import { centsToText, textToCents } from "../../platform/money";
import { codeOf } from "../../shared/confirmations/codes";
import { type ConfirmationLineInput, type ConfirmationOutcome, confirmLines } from "../confirmations/confirm";
import type { InvoiceLineInput, SubmitOutcome } from "../invoices/submit";
import { submitInvoice } from "../invoices/submit";

/**
 * The simulated vendor's confirmations and invoices (docs/api.md, "Sandbox"): each X12 855 code on demand, and an
 * invoice with each kind of exception, through the very code a real vendor's take (sandbox lines only).
 */

/** What the simulated vendor reads of a test order's line. */
interface SandboxLine {
  id: number;
  vendor_id: number;
  quantity: number;
  shipped_quantity: number;
  price_cents: number;
  contract_price_cents: number | null;
  part_number: string;
}

/** The scenario's options a confirmation or an invoice takes (src/api/sandbox/simulator.ts, ScenarioOptions). */
interface ScenarioOptions {
  code?: string | undefined;
  unitPrice?: string | undefined;
  quantity?: number | undefined;
  exception?: InvoiceException | undefined;
  promisedShipDate?: string | undefined;
  expectedShipDate?: string | undefined;
  reason?: string | undefined;
}

export const INVOICE_EXCEPTIONS = ["none", "price_variance", "quantity_variance", "not_on_po", "contract_price_exception"] as const;
export type InvoiceException = (typeof INVOICE_EXCEPTIONS)[number];

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

const byVendor = (lines: readonly SandboxLine[]) => {
  const groups = new Map<number, SandboxLine[]>();
  for (const line of lines) groups.set(line.vendor_id, [...(groups.get(line.vendor_id) ?? []), line]);
  return groups;
};

/** What a code sends for a line, when the scenario's options do not say. */
function confirmationLine(line: SandboxLine, options: ScenarioOptions): ConfirmationLineInput {
  const code = codeOf(options.code ?? "IA");
  const remaining = line.quantity - line.shipped_quantity;
  const base: ConfirmationLineInput = { lineId: line.id, code: code.code };
  switch (code.code) {
    case "IA":
    case "DR":
      return { ...base, promisedShipDate: options.promisedShipDate ?? day(2) };
    case "IB":
      return { ...base, expectedShipDate: options.expectedShipDate ?? day(14), reason: options.reason ?? "Sandbox: awaiting stock" };
    case "BP":
      return {
        ...base,
        quantity: options.quantity ?? Math.max(1, Math.floor(remaining / 2)),
        expectedShipDate: options.expectedShipDate ?? day(14),
      };
    case "IP":
      return { ...base, unitPrice: options.unitPrice ?? centsToText(line.price_cents + Math.max(1, Math.ceil(line.price_cents / 10))) };
    case "IQ":
      return { ...base, quantity: options.quantity ?? (line.quantity > 1 ? line.quantity - 1 : 2) };
    case "IS":
      return { ...base, substitute: { partNumber: `${line.part_number}-ALT`, description: "Sandbox: equivalent substitute" } };
    case "IC":
      return {
        ...base,
        unitPrice: options.unitPrice ?? centsToText(Math.max(1, line.price_cents - Math.max(1, Math.floor(line.price_cents / 20)))),
      };
    case "SP":
      return base;
    default:
      return { ...base, reason: options.reason ?? `Sandbox: ${code.meaning.toLowerCase()}` };
  }
}

/** One confirmation per vendor of the lines, each line with the scenario's code. */
export async function simulateConfirmations(
  db: Database,
  lines: readonly SandboxLine[],
  options: ScenarioOptions,
): Promise<ConfirmationOutcome[]> {
  const outcomes: ConfirmationOutcome[] = [];
  for (const [vendorId, own] of byVendor(lines)) {
    const confirmation = { type: "detail" as const, lines: own.map((line) => confirmationLine(line, options)) };
    outcomes.push(await confirmLines(db, vendorId, confirmation, { sandbox: true }));
  }
  return outcomes;
}

/** One invoice per vendor of what shipped of the lines, at the order's prices, with the exception asked on its first line. */
export async function simulateInvoices(
  db: Database,
  orderNumber: string,
  lines: readonly SandboxLine[],
  options: ScenarioOptions,
): Promise<SubmitOutcome[]> {
  const exception = options.exception ?? "none";
  const outcomes: SubmitOutcome[] = [];
  for (const [vendorId, own] of byVendor(lines)) {
    const invoiceLines: InvoiceLineInput[] = own.map((line) => ({
      lineId: line.id,
      quantity: line.shipped_quantity,
      unitPrice: centsToText(line.price_cents),
      amount: "",
    }));
    const first = invoiceLines[0]!;
    const firstLine = own[0]!;
    if (exception === "price_variance")
      first.unitPrice = centsToText(Math.max(1, firstLine.price_cents - Math.max(1, Math.floor(firstLine.price_cents / 20))));
    if (exception === "quantity_variance") first.quantity += 1;
    if (exception === "contract_price_exception") {
      const contracted = own.findIndex((line) => line.contract_price_cents !== null);
      if (contracted < 0) {
        throw new ProblemError(
          409,
          "no-contract-line",
          "No contract line",
          `No shipped line of order ${orderNumber} of this vendor was ordered at a contract price.`,
        );
      }
      const line = own[contracted]!;
      invoiceLines[contracted]!.unitPrice = centsToText(
        line.contract_price_cents! + Math.max(1, Math.ceil(line.contract_price_cents! / 100)),
      );
    }
    if (exception === "not_on_po")
      invoiceLines.push({ description: "Sandbox: fuel surcharge", quantity: 1, unitPrice: "9.95", amount: "" });
    let subtotal = 0;
    for (const line of invoiceLines) {
      const amountCents = textToCents(line.unitPrice)! * line.quantity;
      line.amount = centsToText(amountCents);
      subtotal += amountCents;
    }
    outcomes.push(
      await submitInvoice(
        db,
        vendorId,
        {
          invoiceNumber: `SBX-${crypto.randomUUID().slice(0, 8).toUpperCase()}`,
          orderNumber,
          invoiceDate: day(0),
          currency: "USD",
          lines: invoiceLines,
          summary: { subtotal: centsToText(subtotal), tax: "0.00", freight: "0.00", total: centsToText(subtotal) },
        },
        { sandbox: true },
      ),
    );
  }
  return outcomes;
}
