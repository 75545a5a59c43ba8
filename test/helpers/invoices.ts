import { centsToText } from "../../src/platform/money";

/** An invoice body of these lines of one order (each billing an order line, or a charge not on it), adding up exactly. */
export function invoiceBody(
  orderNumber: string,
  lines: { lineId?: number; quantity: number; unitPriceCents: number; description?: string }[],
  number = `INV-${crypto.randomUUID().slice(0, 8)}`,
) {
  const bodyLines = lines.map((line) => ({
    ...(line.lineId !== undefined ? { lineId: line.lineId } : { description: line.description ?? "Handling" }),
    quantity: line.quantity,
    unitPrice: centsToText(line.unitPriceCents),
    amount: centsToText(line.unitPriceCents * line.quantity),
  }));
  const subtotal = lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
  return {
    invoiceNumber: number,
    orderNumber,
    invoiceDate: new Date().toISOString().slice(0, 10),
    currency: "USD",
    lines: bodyLines,
    summary: { subtotal: centsToText(subtotal), tax: "0.00", freight: "0.00", total: centsToText(subtotal) },
  };
}
