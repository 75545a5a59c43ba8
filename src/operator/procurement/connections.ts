import { ProblemError, unprocessable } from "../../platform/errors";
import { modeOfClient } from "../../platform/test-mode";
import { auditStatement } from "../onboarding/audit";
import { createClient } from "../onboarding/clients";
import type { ConnectionInput } from "./schemas";

/**
 * Procurement connections (docs/api.md, "Procurement systems (cXML)"): how one tenant's procurement suite reaches
 * Medparts over cXML. Each stands on an API client of the tenant whose secret is the cXML SharedSecret, so it is hashed,
 * rotated with an overlap and disabled as any client's (POST /admin/api/clients/{clientId}/secrets, /disable), and
 * a test-mode client's connection belongs to the sandbox twin.
 */

/** The scopes a connection's client holds: what the gateway and the PunchOut shop do for the suite. */
export const CONNECTION_SCOPES = ["users:read", "catalog:read", "orders:read", "orders:write"];

export interface Credential {
  domain: string;
  identity: string;
}

export interface Connection {
  id: number;
  tenantId: number;
  mode: "live" | "test";
  clientId: string;
  enabled: boolean;
  name: string;
  buyerIdentities: Credential[];
  supplierIdentity: Credential;
  facilityId: number;
  requesterId: number;
  userId: number;
  shipToAddressId: number;
  shipToAddresses: { code: string; addressId: number }[];
  billToAddressId: number;
  shippingMethod: string;
  paymentMethod: string;
  documentUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

interface ConnectionRow {
  id: number;
  tenant_id: number;
  client_id: string;
  enabled: number;
  name: string;
  supplier_domain: string;
  supplier_identity: string;
  facility_id: number;
  requester_id: number;
  user_id: number;
  ship_to_address_id: number;
  bill_to_address_id: number;
  shipping_method: string;
  payment_method: string;
  document_url: string | null;
  created_at: string;
  updated_at: string;
  identities: string;
  addresses: string;
}

/** One connection row with its identities and address map, as JSON arrays, in one statement. */
const CONNECTION_SELECT =
  "SELECT c.*, k.enabled, " +
  "(SELECT json_group_array(json_object('domain', i.domain, 'identity', i.identity)) FROM procurement_identities i WHERE i.connection_id = c.id) AS identities, " +
  "(SELECT json_group_array(json_array(a.address_code, a.address_id)) FROM (SELECT * FROM procurement_addresses a WHERE a.connection_id = c.id ORDER BY a.address_code) a) AS addresses " +
  "FROM procurement_connections c JOIN api_clients k ON k.client_id = c.client_id";

export function presentConnection(row: ConnectionRow): Connection {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    mode: modeOfClient(row.client_id),
    clientId: row.client_id,
    enabled: row.enabled === 1,
    name: row.name,
    buyerIdentities: JSON.parse(row.identities) as Credential[],
    supplierIdentity: { domain: row.supplier_domain, identity: row.supplier_identity },
    facilityId: row.facility_id,
    requesterId: row.requester_id,
    userId: row.user_id,
    shipToAddressId: row.ship_to_address_id,
    shipToAddresses: (JSON.parse(row.addresses) as [string, number][]).map(([code, addressId]) => ({ code, addressId })),
    billToAddressId: row.bill_to_address_id,
    shippingMethod: row.shipping_method,
    paymentMethod: row.payment_method,
    documentUrl: row.document_url,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function readConnection(db: D1Database, id: number): Promise<Connection | null> {
  const row = await db.prepare(`${CONNECTION_SELECT} WHERE c.id = ?`).bind(id).first<ConnectionRow>();
  return row ? presentConnection(row) : null;
}

export async function connectionOr404(db: D1Database, id: number): Promise<Connection> {
  const found = await readConnection(db, id);
  if (!found) throw new ProblemError(404, "not-found", "Not Found", `No procurement connection ${id}.`);
  return found;
}

/**
 * The connection the buyer's credentials name in a mode (the cXML gateway's lookup), or null: a From credential's
 * before a Sender's (the first `fromCount` are the From ones), so a network's shared Sender identity never wins over the
 * buyer's own.
 */
export async function connectionOfCredentials(
  db: D1Database,
  mode: "live" | "test",
  credentials: Credential[],
  fromCount: number,
): Promise<Connection | null> {
  const named = credentials
    .slice(0, 20)
    .map((credential, i) => ({ ...credential, from: i < fromCount }))
    .filter((credential) => credential.domain && credential.identity);
  if (named.length === 0) return null;
  const ordered = [...named.filter((credential) => credential.from), ...named.filter((credential) => !credential.from)];
  const fromCountNamed = named.filter((credential) => credential.from).length;
  const pair = (i: number) => `(i.domain = ?${2 * i + 2} AND i.identity = ?${2 * i + 3})`;
  const any = ordered.map((_, i) => pair(i)).join(" OR ");
  const fromFirst =
    fromCountNamed > 0
      ? `CASE WHEN ${ordered
          .slice(0, fromCountNamed)
          .map((_, i) => pair(i))
          .join(" OR ")} THEN 0 ELSE 1 END, `
      : "";
  const row = await db
    .prepare(
      `${CONNECTION_SELECT} WHERE c.id = (SELECT i.connection_id FROM procurement_identities i WHERE i.mode = ?1 AND (${any}) ORDER BY ${fromFirst}i.connection_id LIMIT 1)`,
    )
    .bind(mode, ...ordered.flatMap((credential) => [credential.domain, credential.identity]))
    .first<ConnectionRow>();
  return row ? presentConnection(row) : null;
}

export async function listConnections(db: D1Database, tenantId: number | undefined, limit: number, offset: number): Promise<Connection[]> {
  const { results } = await db
    .prepare(`${CONNECTION_SELECT} WHERE ?1 IS NULL OR c.tenant_id = ?1 ORDER BY c.id DESC LIMIT ?2 OFFSET ?3`)
    .bind(tenantId ?? null, limit, offset)
    .all<ConnectionRow>();
  return results.map(presentConnection);
}

/**
 * 422 unless the facility, the requester and user, and every address belong to the tenant, the requester and the user
 * may order for the facility, and no buyer identity already names another connection of the mode.
 */
async function checkMapping(db: D1Database, tenantId: number, mode: "live" | "test", input: ConnectionInput, connectionId: number | null) {
  const mapped = (input.shipToAddresses ?? []).map((entry) => entry.addressId);
  const addressIds = [...new Set([input.shipToAddressId, input.billToAddressId, ...mapped])];
  const identities = input.buyerIdentities;
  const taken = identities.map((_, i) => `(domain = ?${2 * i + 3} AND identity = ?${2 * i + 4})`).join(" OR ");
  const [tenant, facility, requester, user, addresses, clashes] = await db.batch<Record<string, unknown>>([
    db.prepare("SELECT id FROM tenants WHERE id = ? AND disabled_at IS NULL").bind(tenantId),
    db
      .prepare("SELECT f.id FROM facilities f JOIN companies co ON co.id = f.company_id WHERE f.id = ? AND co.tenant_id = ?")
      .bind(input.facilityId, tenantId),
    db
      .prepare(
        "SELECT u.id FROM users u JOIN user_facilities uf ON uf.user_id = u.id WHERE u.contact_id = ? AND u.tenant_id = ? AND uf.facility_id = ?",
      )
      .bind(input.requesterId, tenantId, input.facilityId),
    db
      .prepare(
        "SELECT u.id FROM users u JOIN user_facilities uf ON uf.user_id = u.id WHERE u.id = ? AND u.tenant_id = ? AND uf.facility_id = ?",
      )
      .bind(input.userId, tenantId, input.facilityId),
    db
      .prepare(
        `SELECT a.id, a.kind FROM addresses a JOIN companies co ON co.id = a.company_id WHERE co.tenant_id = ?1 AND a.id IN (${addressIds.map((_, i) => `?${i + 2}`).join(", ")})`,
      )
      .bind(tenantId, ...addressIds),
    db
      .prepare(`SELECT domain, identity FROM procurement_identities WHERE mode = ?1 AND connection_id IS NOT ?2 AND (${taken})`)
      .bind(mode, connectionId, ...identities.flatMap((credential) => [credential.domain, credential.identity])),
  ]);
  const problems: string[] = [];
  if (tenant!.results.length === 0) problems.push(`tenantId: no enabled tenant ${tenantId}.`);
  if (facility!.results.length === 0) problems.push(`facilityId: no facility ${input.facilityId} of tenant ${tenantId}.`);
  if (requester!.results.length === 0) {
    problems.push(
      `requesterId: no user of tenant ${tenantId} with contact id ${input.requesterId} who may order for facility ${input.facilityId}.`,
    );
  }
  if (user!.results.length === 0)
    problems.push(`userId: no user ${input.userId} of tenant ${tenantId} who may order for facility ${input.facilityId}.`);
  const kinds = new Map((addresses!.results as { id: number; kind: string }[]).map((row) => [row.id, row.kind]));
  const shipping = [input.shipToAddressId, ...mapped];
  for (const id of new Set(shipping)) {
    if (kinds.get(id) !== "shipping") problems.push(`shipToAddresses: ${id} is not a shipping address of tenant ${tenantId}.`);
  }
  if (kinds.get(input.billToAddressId) !== "billing") {
    problems.push(`billToAddressId: ${input.billToAddressId} is not a billing address of tenant ${tenantId}.`);
  }
  for (const clash of clashes!.results as unknown as Credential[]) {
    problems.push(`buyerIdentities: ${clash.domain} ${clash.identity} already names another ${mode} connection.`);
  }
  if (problems.length > 0) throw unprocessable(problems);
}

/** A connection row's mapping columns, in the order of the INSERT and the UPDATE below (name to document_url). */
const mappingColumns = (input: ConnectionInput) => [
  input.name,
  input.supplierIdentity.domain,
  input.supplierIdentity.identity,
  input.facilityId,
  input.requesterId,
  input.userId,
  input.shipToAddressId,
  input.billToAddressId,
  input.shippingMethod,
  input.paymentMethod,
  input.documentUrl ?? null,
];

/** The statements that (re)write a connection's identities and address map, for the connection `idOf` selects. */
function mappingStatements(db: D1Database, idOf: string, idBinding: string | number, mode: "live" | "test", input: ConnectionInput) {
  return [
    db.prepare(`DELETE FROM procurement_identities WHERE connection_id = (${idOf})`).bind(idBinding),
    db.prepare(`DELETE FROM procurement_addresses WHERE connection_id = (${idOf})`).bind(idBinding),
    ...input.buyerIdentities.map((credential) =>
      db
        .prepare(`INSERT INTO procurement_identities (connection_id, mode, domain, identity) VALUES ((${idOf}), ?2, ?3, ?4)`)
        .bind(idBinding, mode, credential.domain, credential.identity),
    ),
    ...(input.shipToAddresses ?? []).map((entry) =>
      db
        .prepare(`INSERT INTO procurement_addresses (connection_id, address_code, address_id) VALUES ((${idOf}), ?2, ?3)`)
        .bind(idBinding, entry.code, entry.addressId),
    ),
  ];
}

const audit = (actor: string, action: string, id: string, before: unknown, after: unknown) => ({
  actor,
  action,
  targetType: "procurement_connection",
  targetId: id,
  before,
  after,
});

/** Creates the connection and its client in one batch; the SharedSecret is returned once. */
export async function createConnection(
  db: D1Database,
  tenantId: number,
  mode: "live" | "test",
  input: ConnectionInput,
  actor: string,
): Promise<{ connection: Connection; sharedSecret: string }> {
  await checkMapping(db, tenantId, mode, input, null);
  const byClient = "SELECT id FROM procurement_connections WHERE client_id = ?1";
  let clientIdMade = "";
  let secret: string;
  try {
    ({ secret } = await createClient(
      db,
      { kind: "tenant", tenantId, mode, name: `cXML: ${input.name}`, scopes: CONNECTION_SCOPES },
      actor,
      new Date(),
      (clientId, at) => {
        clientIdMade = clientId;
        return [
          db
            .prepare(
              "INSERT INTO procurement_connections (tenant_id, client_id, name, supplier_domain, supplier_identity, facility_id, requester_id, user_id, " +
                "ship_to_address_id, bill_to_address_id, shipping_method, payment_method, document_url, created_at, updated_at) " +
                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?14)",
            )
            .bind(tenantId, clientId, ...mappingColumns(input), at),
          ...mappingStatements(db, byClient, clientId, mode, input),
          auditStatement(db, audit(actor, "procurement_connection.created", clientId, null, { tenantId, mode, ...input }), at),
        ];
      },
    ));
  } catch (err) {
    // Another connection took one of these identities meanwhile (checkMapping ran before): the same 422 as when it had.
    if (/UNIQUE constraint failed: procurement_identities/.test(String(err))) {
      throw unprocessable(["buyerIdentities: one of them already names another connection of this mode."]);
    }
    throw err;
  }
  const row = await db.prepare(`${CONNECTION_SELECT} WHERE c.client_id = ?`).bind(clientIdMade).first<ConnectionRow>();
  return { connection: presentConnection(row!), sharedSecret: secret };
}

/** Replaces a connection's mapping (all but its tenant, mode and client) in one batch. */
export async function replaceConnection(db: D1Database, id: number, input: ConnectionInput, actor: string): Promise<Connection> {
  const before = await connectionOr404(db, id);
  await checkMapping(db, before.tenantId, before.mode, input, id);
  const at = new Date().toISOString();
  await db.batch([
    db
      .prepare(
        "UPDATE procurement_connections SET name = ?2, supplier_domain = ?3, supplier_identity = ?4, facility_id = ?5, requester_id = ?6, user_id = ?7, " +
          "ship_to_address_id = ?8, bill_to_address_id = ?9, shipping_method = ?10, payment_method = ?11, document_url = ?12, updated_at = ?13 WHERE id = ?1",
      )
      .bind(id, ...mappingColumns(input), at),
    ...mappingStatements(db, "SELECT ?1", id, before.mode, input),
    auditStatement(db, audit(actor, "procurement_connection.replaced", before.clientId, before, input), at),
  ]);
  return connectionOr404(db, id);
}
