import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { certificatePem, createSelfSignedIdentity } from "../../src/operator/edi/as2/certificates";
import { partnerToken } from "../../src/shared/auth/partner-tokens";
import { call, json, operatorTokenFor, TENANT_A, tokenFor, vendorTokenFor } from "../helpers/api";
import { contractCall } from "../helpers/contract";
import { partnerInput } from "../helpers/edi";

const PARTNERS = "/admin/api/edi-partners";

async function create(body: Record<string, unknown>): Promise<Response> {
  return call(await operatorTokenFor(), PARTNERS, { method: "POST", json: body });
}

async function created(body: Record<string, unknown>) {
  const res = await create(body);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json(res)).data;
}

/** A self-signed P-256 certificate made for this test with openssl (its key thrown away). */
const EC_CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIBkjCCATmgAwIBAgIUeH/IQMaImS77CFB8NWon/9Nddr4wCgYIKoZIzj0EAwIw
HzEdMBsGA1UEAwwURXhhbXBsZSBTdXBwbGllciBBUzIwHhcNMjYxMjA3MTA1MDEx
WhcNMzYxMjA0MTA1MDExWjAfMR0wGwYDVQQDDBRFeGFtcGxlIFN1cHBsaWVyIEFT
MjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABJCbROm85+geINbyzmnpQRlnoKMZ
FCz8FX3YqT6oEYq5s2YJwtHqJ3N3oLM5rQ7B0FFrfGwMm9v7UVXEXP9nAsejUzBR
MB0GA1UdDgQWBBRLOFuGQMjwYXq+TJlun7L95RLZwzAfBgNVHSMEGDAWgBRLOFuG
QMjwYXq+TJlun7L95RLZwzAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0cA
MEQCICX4zy4CPq24JZiXaREBaCDQV06W7mwopDF7UxUfV7rZAiAxwgVxBpthNc2V
slNYrlsO5E6ssxldORG1Tadm7ltiQg==
-----END CERTIFICATE-----
`;

const as2With = (partnerCertificate: string) => ({
  transport: { kind: "as2", url: "https://as2.example.com/as2", as2From: "A", as2To: "B", partnerCertificate },
});

const partnerCount = () => env.DB.prepare("SELECT count(*) AS n FROM edi_partners").first<number>("n");

/** The field names a refused request's answer names (its `errors`, whatever the answer's form). */
async function refusedFields(res: Response): Promise<string> {
  return JSON.stringify(await res.json());
}

describe("X12 trading partners (operator API)", () => {
  it("adds, reads, lists and replaces a partner, each write audited, the AS2 settings kept as given", async () => {
    const as2 = {
      kind: "as2",
      url: "https://as2.supplier.example.com/as2",
      as2From: "MEDPARTS",
      as2To: "ACME AS2",
      partnerCertificate: certificatePem((await createSelfSignedIdentity("Acme Surgical AS2")).certificate),
      mdn: "async",
    };
    const input = partnerInput({
      version: "005010",
      acknowledgment: "999",
      delimiters: { element: "|", component: ":", repetition: "^", segment: "~" },
      transport: as2,
    });
    const res = await contractCall(await operatorTokenFor(), PARTNERS, { method: "POST", json: { vendorId: 1, ...input } });
    expect(res.status).toBe(201);
    const partner = (await json(res)).data;
    expect(res.headers.get("Location")).toBe(`${PARTNERS}/${partner.id}`);
    expect(partner).toMatchObject({
      vendorId: 1,
      usage: "production",
      version: "005010",
      acknowledgment: "999",
      delimiters: { element: "|", component: ":", repetition: "^", segment: "~" },
      orderChanges: "none",
      acknowledgmentWindowMinutes: 1440,
      transport: as2,
    });

    const token = await operatorTokenFor();
    expect((await json(await contractCall(token, `${PARTNERS}/${partner.id}`))).data).toEqual(partner);
    const listed = (await json(await contractCall(token, `${PARTNERS}?vendorId=1`))).data.items;
    expect(listed.map((p: { id: number }) => p.id)).toContain(partner.id);
    expect((await json(await contractCall(token, `${PARTNERS}?vendorId=2`))).data.items).toEqual([]);

    const replacement = partnerInput({ name: "Acme over the mailbox", documents: ["850", "860"], orderChanges: "860" });
    const replaced = await contractCall(token, `${PARTNERS}/${partner.id}`, { method: "PUT", json: replacement });
    expect(replaced.status).toBe(200);
    const after = (await json(replaced)).data;
    expect(after).toMatchObject({
      id: partner.id,
      vendorId: 1,
      name: "Acme over the mailbox",
      transport: { kind: "mailbox" },
      orderChanges: "860",
    });
    expect(after.delimiters.repetition).toBeNull();

    const { results } = await env.DB.prepare(
      "SELECT action, target_id AS targetId, before FROM audit_log WHERE target_type = 'edi_partner' ORDER BY id",
    ).all<{ action: string; targetId: string; before: string | null }>();
    expect(results.map((r) => [r.action, r.targetId])).toEqual([
      ["edi_partner.created", String(partner.id)],
      ["edi_partner.replaced", String(partner.id)],
    ]);
    expect(JSON.parse(results[1]!.before!).name).toBe(input.name);
  });

  it("acts through a vendor client of its own, created with it: tokens for it only while the client is enabled", async () => {
    const partner = await created({ vendorId: 2, ...partnerInput({ name: "Bolt Medical EDI" }) });
    expect(partner.clientId).toMatch(/^mpv_/);
    const client = await env.DB.prepare("SELECT vendor_id AS vendorId, name, scopes, enabled FROM api_clients WHERE client_id = ?")
      .bind(partner.clientId)
      .first<{ vendorId: number; name: string; scopes: string; enabled: number }>();
    expect(client).toEqual({
      vendorId: 2,
      name: "EDI partner: Bolt Medical EDI",
      scopes: expect.stringContaining("fulfilment:write"),
      enabled: 1,
    });

    const issued = await partnerToken(env, partner.id);
    expect(issued).not.toBeNull();
    const claims = JSON.parse(atob(issued!.token.split(".")[1]!.replaceAll("-", "+").replaceAll("_", "/")));
    expect(claims).toMatchObject({ vid: 2, client_id: partner.clientId, aud: env.VENDOR_AUDIENCE });
    const lines = await call(issued!.token, "/vendor/api/order-lines");
    expect(lines.status).toBe(200);

    const disabled = await call(await operatorTokenFor(), `/admin/api/clients/${partner.clientId}/disable`, { method: "POST", json: {} });
    expect(disabled.status, await disabled.clone().text()).toBeLessThan(300);
    expect(await partnerToken(env, partner.id)).toBeNull();
    expect(await partnerToken(env, 999_999)).toBeNull();
  });

  it("one partner per interchange sender and usage: the same sender may be a test and a production partner", async () => {
    const partnerIdentity = { qualifier: "01", id: "123456789" };
    await created({ vendorId: 1, ...partnerInput({ partnerIdentity }) });
    await created({ vendorId: 1, ...partnerInput({ partnerIdentity, usage: "test" }) });
    const again = await create({ vendorId: 2, ...partnerInput({ partnerIdentity }) });
    expect(again.status).toBe(422);
    expect(await refusedFields(again)).toContain("partnerIdentity");
    const other = await created({ vendorId: 2, ...partnerInput() });
    const taken = await call(await operatorTokenFor(), `${PARTNERS}/${other.id}`, {
      method: "PUT",
      json: partnerInput({ partnerIdentity }),
    });
    expect(taken.status).toBe(422);
    expect((await json(await call(await operatorTokenFor(), `${PARTNERS}/${other.id}`))).data.partnerIdentity).toEqual(
      other.partnerIdentity,
    );
  });

  it("refuses what X12 or the partner's version cannot carry, naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ delimiters: { element: "*", component: "*", segment: "~" } }, "delimiters"],
      [{ delimiters: { element: "A", component: ">", segment: "~" } }, "delimiters.element"],
      [{ delimiters: { element: "*", component: ">", repetition: "^", segment: "~" } }, "delimiters.repetition"],
      [{ acknowledgment: "999" }, "acknowledgment"],
      [{ orderChanges: "860" }, "orderChanges"],
      [{ documents: ["850", "850"] }, "documents"],
      [{ partnerIdentity: { qualifier: "zz", id: "ACME" } }, "partnerIdentity.qualifier"],
      [{ partnerIdentity: { qualifier: "ZZ", id: "X".repeat(16) } }, "partnerIdentity.id"],
      [{ ourApplicationId: " MEDPARTS" }, "ourApplicationId"],
      [
        {
          transport: {
            kind: "as2",
            url: "https://10.0.0.1/as2",
            as2From: "A",
            as2To: "B",
            partnerCertificate: "-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n",
          },
        },
        "transport.url",
      ],
      [
        {
          transport: { kind: "as2", url: "https://as2.example.com/as2", as2From: "A", as2To: "B", partnerCertificate: "not a certificate" },
        },
        "partnerCertificate",
      ],
      // The shape of a PEM certificate, but not one; an EC key; a certificate past its validity.
      [as2With("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"), "Not an X.509 certificate"],
      [as2With(EC_CERTIFICATE), "not RSA"],
      [as2With(certificatePem((await createSelfSignedIdentity("Expired", -1)).certificate)), "Not valid now"],
    ];
    const partnersBefore = await partnerCount();
    const auditBefore = await env.DB.prepare("SELECT count(*) AS n FROM audit_log").first("n");
    for (const [override, field] of cases) {
      const res = await create({ vendorId: 1, ...partnerInput(override) });
      expect(res.status, JSON.stringify(override)).toBe(400);
      expect(await refusedFields(res), JSON.stringify(override)).toContain(field);
    }
    const unknownVendor = await create({ vendorId: 999_999, ...partnerInput() });
    expect(unknownVendor.status).toBe(422);
    expect(await refusedFields(unknownVendor)).toContain("vendorId");
    expect(await partnerCount()).toBe(partnersBefore);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM audit_log").first("n")).toBe(auditBefore);
  });

  it("is the operator's: a vendor's or a buyer's token reads and writes none of it", async () => {
    const partner = await created({ vendorId: 1, ...partnerInput() });
    const partnersBefore = await partnerCount();
    for (const token of [await vendorTokenFor(1), await tokenFor(TENANT_A)]) {
      for (const [path, init] of [
        [PARTNERS, {}],
        [`${PARTNERS}/${partner.id}`, {}],
        [PARTNERS, { method: "POST", json: { vendorId: 1, ...partnerInput() } }],
        [`${PARTNERS}/${partner.id}`, { method: "PUT", json: partnerInput() }],
      ] as const) {
        const res = await call(token, path, init);
        expect(res.status, `${path} ${JSON.stringify(init)}`).toBe(401);
      }
    }
    expect(await partnerCount()).toBe(partnersBefore);
    expect((await call(await operatorTokenFor(), `${PARTNERS}/${partner.id + 1000}`)).status).toBe(404);
  });
});
