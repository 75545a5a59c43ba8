/**
 * How a part is bought (migrations/0032): outright, on exchange (a core goes back), on loan, or for repair (send-in).
 * The terms are a quote's promise like its price: an offer revision freezes them, an order line keeps them. Money in
 * cents. The rules and the API's shapes: src/shared/catalog/purchase-terms.ts.
 */
export type PurchaseType = "buy" | "exchange" | "loan" | "repair";

export type PurchaseTerms =
  | { type: "buy" }
  | { type: "exchange"; coreChargeCents: number; coreDueDays: number; coreConditions: string[]; returnTo: string | null }
  | { type: "loan"; loanDays: number; lateFeePerDayCents: number; returnTo: string | null }
  | { type: "repair"; turnaroundDays: number; reasons: string[]; returnTo: string | null };

/** The unit a repair line sends in. */
export interface RepairRequest {
  serialNumber: string;
  reason: string;
  description: string | null;
}
