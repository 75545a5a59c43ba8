import { type PartnerEnvelope, type PartnerSet, supplierInterchange } from "../../operator/edi/sandbox/supplier-documents";

/**
 * A supplier's settings and X12 documents as the tests (test/helpers/edi.ts, test/edi/) and `npm run demo -- --edi`
 * (scripts/demo/edi.ts) send them: the documents are the sandbox's simulated supplier's (src/operator/edi/sandbox/).
 */

export {
  ccyymmdd,
  isoDay,
  type PartnerEnvelope,
  type PartnerSet,
  seg,
  set810,
  set832,
  set855,
  set856,
  set997,
  setCredit810,
  shippedNow,
  unique,
} from "../../operator/edi/sandbox/supplier-documents";

/** A valid X12 trading partner's settings (POST /admin/api/edi-partners without vendorId), its sender unique per call. */
export function partnerInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: "Acme Surgical EDI",
    usage: "production",
    partnerIdentity: { qualifier: "ZZ", id: `ACME${crypto.randomUUID().slice(0, 8).toUpperCase()}` },
    ourIdentity: { qualifier: "ZZ", id: "MEDPARTS" },
    partnerApplicationId: "ACMESURG",
    ourApplicationId: "MEDPARTS",
    version: "004010",
    delimiters: { element: "*", component: ">", segment: "~" },
    acknowledgment: "997",
    documents: ["850", "855", "856", "810"],
    transport: { kind: "mailbox" },
    ...overrides,
  };
}

let nextControl = 1;

/** A partner's interchange of these sets (supplierInterchange), a new control number each call unless given. */
export const partnerFile = (sets: PartnerSet[], envelope: Partial<PartnerEnvelope> = {}): string =>
  supplierInterchange(sets, { ...envelope, controlNumber: envelope.controlNumber ?? nextControl++ });
