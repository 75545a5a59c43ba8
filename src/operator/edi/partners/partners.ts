import { ProblemError, unprocessable } from "../../../platform/errors";
import { VENDOR_SCOPES } from "../../../platform/principal";
import { auditStatement } from "../../onboarding/audit";
import { createClient } from "../../onboarding/clients";
import type { Partner, PartnerInput } from "./schemas";

/**
 * X12 trading partners (docs/edi.md, "Trading partners"): a vendor's identities, version, delimiters, documents and
 * transport, written by the operator in one batch with its audit entry. An interchange's sender (ISA05/06) and usage
 * (ISA15) name one partner.
 */

export interface PartnerRow {
  id: number;
  vendor_id: number;
  name: string;
  usage: "T" | "P";
  partner_qualifier: string;
  partner_id: string;
  our_qualifier: string;
  our_id: string;
  partner_application_id: string;
  our_application_id: string;
  version: Partner["version"];
  element_separator: string;
  component_separator: string;
  repetition_separator: string | null;
  segment_terminator: string;
  acknowledgment: Partner["acknowledgment"];
  documents: string;
  order_changes: Partner["orderChanges"];
  acknowledgment_window_minutes: number;
  transport: "as2" | "mailbox";
  as2_settings: string | null;
  simulated_supplier: 0 | 1;
  client_id: string | null;
  created_at: string;
  updated_at: string;
}

const USAGE_CODE = { test: "T", production: "P" } as const;

export function presentPartner(row: PartnerRow): Partner {
  return {
    id: row.id,
    vendorId: row.vendor_id,
    name: row.name,
    usage: row.usage === "T" ? "test" : "production",
    partnerIdentity: { qualifier: row.partner_qualifier, id: row.partner_id },
    ourIdentity: { qualifier: row.our_qualifier, id: row.our_id },
    partnerApplicationId: row.partner_application_id,
    ourApplicationId: row.our_application_id,
    version: row.version,
    delimiters: {
      element: row.element_separator,
      component: row.component_separator,
      repetition: row.repetition_separator,
      segment: row.segment_terminator,
    },
    acknowledgment: row.acknowledgment,
    documents: JSON.parse(row.documents) as Partner["documents"],
    orderChanges: row.order_changes,
    acknowledgmentWindowMinutes: row.acknowledgment_window_minutes,
    transport:
      row.transport === "as2"
        ? { kind: "as2", ...(JSON.parse(row.as2_settings ?? "{}") as Omit<Extract<Partner["transport"], { kind: "as2" }>, "kind">) }
        : { kind: "mailbox" },
    simulatedSupplier: row.simulated_supplier === 1,
    clientId: row.client_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The columns a partner's input writes, in the order of PARTNER_COLUMNS. */
function partnerValues(input: PartnerInput): (string | number | null)[] {
  const { kind, ...as2 } = input.transport;
  return [
    input.name,
    USAGE_CODE[input.usage],
    input.partnerIdentity.qualifier,
    input.partnerIdentity.id,
    input.ourIdentity.qualifier,
    input.ourIdentity.id,
    input.partnerApplicationId,
    input.ourApplicationId,
    input.version,
    input.delimiters.element,
    input.delimiters.component,
    input.delimiters.repetition ?? null,
    input.delimiters.segment,
    input.acknowledgment,
    JSON.stringify(input.documents),
    input.orderChanges,
    input.acknowledgmentWindowMinutes,
    kind,
    kind === "as2" ? JSON.stringify(as2) : null,
    input.simulatedSupplier ? 1 : 0,
  ];
}

const PARTNER_COLUMNS = [
  "name",
  "usage",
  "partner_qualifier",
  "partner_id",
  "our_qualifier",
  "our_id",
  "partner_application_id",
  "our_application_id",
  "version",
  "element_separator",
  "component_separator",
  "repetition_separator",
  "segment_terminator",
  "acknowledgment",
  "documents",
  "order_changes",
  "acknowledgment_window_minutes",
  "transport",
  "as2_settings",
  "simulated_supplier",
];

const SENDER_TAKEN = "partnerIdentity: another partner of this usage already sends as this qualifier and id.";

/** A UNIQUE failure of the sender's index as the 422 it is; anything else as it came. */
function senderTaken(error: unknown): never {
  if (/UNIQUE constraint failed: edi_partners/.test(String(error))) throw unprocessable([SENDER_TAKEN]);
  throw error;
}

async function requireVendor(db: D1Database, vendorId: number): Promise<void> {
  if (!(await db.prepare("SELECT 1 FROM vendors WHERE id = ?").bind(vendorId).first())) {
    throw unprocessable([`vendorId: no vendor ${vendorId}.`]);
  }
}

export async function readPartner(db: D1Database, id: number): Promise<Partner | null> {
  const row = await db.prepare("SELECT * FROM edi_partners WHERE id = ?").bind(id).first<PartnerRow>();
  return row ? presentPartner(row) : null;
}

export async function partnerOr404(db: D1Database, id: number): Promise<Partner> {
  const found = await readPartner(db, id);
  if (!found) throw new ProblemError(404, "not-found", "Not Found", `No EDI partner ${id}.`);
  return found;
}

/** Partners, newest first: every vendor's, or one vendor's. */
export async function listPartners(db: D1Database, vendorId: number | undefined, limit: number, offset: number): Promise<Partner[]> {
  const { results } = await db
    .prepare("SELECT * FROM edi_partners WHERE ?1 IS NULL OR vendor_id = ?1 ORDER BY id DESC LIMIT ?2 OFFSET ?3")
    .bind(vendorId ?? null, limit, offset)
    .all<PartnerRow>();
  return results.map(presentPartner);
}

const audit = (actor: string, action: string, targetId: string | null, before: unknown, after: unknown) => ({
  actor,
  action,
  targetType: "edi_partner",
  targetId,
  before,
  after,
});

/**
 * Adds a partner with the vendor client it acts through (its secret never shown: only Medparts acts as it), the two and
 * their audit entries in one batch, so neither exists without the other.
 */
export async function createPartner(db: D1Database, vendorId: number, input: PartnerInput, actor: string): Promise<Partner> {
  await requireVendor(db, vendorId);
  const placeholders = PARTNER_COLUMNS.map((_, i) => `?${i + 3}`).join(", ");
  const updatedAt = `?${PARTNER_COLUMNS.length + 3}`;
  const { client } = await createClient(
    db,
    { kind: "vendor", vendorId, name: `EDI partner: ${input.name}`.slice(0, 100), scopes: [...VENDOR_SCOPES] },
    actor,
    new Date(),
    (clientId, at) => [
      db
        .prepare(
          `INSERT INTO edi_partners (vendor_id, client_id, ${PARTNER_COLUMNS.join(", ")}, created_at, updated_at) VALUES (?1, ?2, ${placeholders}, ${updatedAt}, ${updatedAt})`,
        )
        .bind(vendorId, clientId, ...partnerValues(input), at),
      auditStatement(db, audit(actor, "edi_partner.created", null, null, { vendorId, clientId, ...input }), at),
    ],
  ).catch(senderTaken);
  const row = await db.prepare("SELECT * FROM edi_partners WHERE client_id = ?").bind(client.clientId).first<PartnerRow>();
  return presentPartner(row!);
}

/** Replaces a partner's settings (its vendor stays), in one batch with its audit entry naming what it was. */
export async function replacePartner(db: D1Database, id: number, input: PartnerInput, actor: string): Promise<Partner> {
  const before = await partnerOr404(db, id);
  const at = new Date().toISOString();
  const assignments = PARTNER_COLUMNS.map((column, i) => `${column} = ?${i + 2}`).join(", ");
  const [updated] = await db
    .batch<PartnerRow>([
      db
        .prepare(`UPDATE edi_partners SET ${assignments}, updated_at = ?${PARTNER_COLUMNS.length + 2} WHERE id = ?1 RETURNING *`)
        .bind(id, ...partnerValues(input), at),
      auditStatement(db, audit(actor, "edi_partner.replaced", String(id), before, input), at),
    ])
    .catch(senderTaken);
  const row = updated!.results[0];
  if (!row) throw new ProblemError(404, "not-found", "Not Found", `No EDI partner ${id}.`);
  return presentPartner(row);
}

/** The partner an inbound interchange names by its sender (ISA05/06) and usage (ISA15); with `vendorId`, only that vendor's. */
export async function partnerOfSender(
  db: D1Database,
  usage: Partner["usage"],
  qualifier: string,
  id: string,
  vendorId?: number,
): Promise<Partner | null> {
  const row = await db
    .prepare(
      "SELECT * FROM edi_partners WHERE usage = ?1 AND partner_qualifier = ?2 AND partner_id = ?3 AND (?4 IS NULL OR vendor_id = ?4)",
    )
    .bind(USAGE_CODE[usage], qualifier, id, vendorId ?? null)
    .first<PartnerRow>();
  return row ? presentPartner(row) : null;
}

/**
 * The AS2 partners that send as `theirName` (their AS2-From) to `ourName` (their AS2-To): a test and a production partner
 * may share their AS2 names, and each interchange's ISA15 says which of them it is.
 */
export async function partnersOfAs2Names(db: D1Database, theirName: string, ourName: string): Promise<Partner[]> {
  const { results } = await db
    .prepare(
      "SELECT * FROM edi_partners WHERE transport = 'as2' AND json_extract(as2_settings, '$.as2To') = ?1 AND json_extract(as2_settings, '$.as2From') = ?2 ORDER BY id",
    )
    .bind(theirName, ourName)
    .all<PartnerRow>();
  return results.map(presentPartner);
}
