import { eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { purchasingSettings } from "../../db/schema";

/**
 * The tenant's purchasing settings (docs/api.md, "Purchasing settings"), kept with its orders (DB or its store): how far
 * a vendor's price increase is accepted without asking the buyer, and how far an invoice may differ from the order
 * and what shipped and still match. Percentages are basis points and amounts cents, so every comparison is exact.
 */

/** A limit of a price difference: a share of the price, an amount, or both (the smaller wins); null when none is set. */
export interface Tolerance {
  percentBp: number | null;
  amountCents: number | null;
}

export interface PurchasingSettings {
  /** Price increases a vendor's confirmation may make without the buyer's answer; null: every increase asks. */
  autoAccept: Tolerance | null;
  /** How far an invoiced unit price may differ from the order's and still match (default: not at all). */
  priceTolerance: Tolerance;
  /** How many units an invoice may exceed what shipped by and still match (default 0). */
  quantityTolerance: number;
  /** How many days before a core's or loaner's due day the tenant is warned (src/api/returns/due.ts). */
  dueSoonDays: number;
}

export const DEFAULT_DUE_SOON_DAYS = 3;

export const DEFAULT_SETTINGS: PurchasingSettings = {
  autoAccept: null,
  priceTolerance: { percentBp: null, amountCents: null },
  quantityTolerance: 0,
  dueSoonDays: DEFAULT_DUE_SOON_DAYS,
};

/** Whether a difference of `diffCents` on a price of `baseCents` is within the tolerance (both limits when both are set). */
export function withinTolerance(diffCents: number, baseCents: number, tolerance: Tolerance): boolean {
  const diff = Math.abs(diffCents);
  if (diff === 0) return true;
  if (tolerance.percentBp === null && tolerance.amountCents === null) return false;
  if (tolerance.percentBp !== null && diff * 10_000 > tolerance.percentBp * baseCents) return false;
  if (tolerance.amountCents !== null && diff > tolerance.amountCents) return false;
  return true;
}

type SettingsRow = typeof purchasingSettings.$inferSelect;

export function settingsOf(row: SettingsRow | undefined): PurchasingSettings {
  if (!row) return DEFAULT_SETTINGS;
  const autoAccept =
    row.autoAcceptPercentBp === null && row.autoAcceptAmountCents === null
      ? null
      : { percentBp: row.autoAcceptPercentBp, amountCents: row.autoAcceptAmountCents };
  return {
    autoAccept,
    priceTolerance: { percentBp: row.priceTolerancePercentBp, amountCents: row.priceToleranceAmountCents },
    quantityTolerance: row.quantityTolerance,
    dueSoonDays: row.dueSoonDays ?? DEFAULT_DUE_SOON_DAYS,
  };
}

/** The tenant's settings row, for a read batch (empty when the tenant never set any). */
export const settingsQuery = (db: Database, tenantId: number) =>
  db.select().from(purchasingSettings).where(eq(purchasingSettings.tenantId, tenantId));

export async function readSettings(db: Database, tenantId: number): Promise<PurchasingSettings> {
  return settingsOf((await settingsQuery(db, tenantId).all())[0]);
}

export async function writeSettings(db: Database, tenantId: number, settings: PurchasingSettings, at: string): Promise<void> {
  const values = {
    autoAcceptPercentBp: settings.autoAccept?.percentBp ?? null,
    autoAcceptAmountCents: settings.autoAccept?.amountCents ?? null,
    priceTolerancePercentBp: settings.priceTolerance.percentBp,
    priceToleranceAmountCents: settings.priceTolerance.amountCents,
    quantityTolerance: settings.quantityTolerance,
    dueSoonDays: settings.dueSoonDays,
    updatedAt: at,
  };
  await db
    .insert(purchasingSettings)
    .values({ tenantId, ...values })
    .onConflictDoUpdate({ target: purchasingSettings.tenantId, set: values });
}
