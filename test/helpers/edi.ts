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
