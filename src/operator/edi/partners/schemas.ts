import { z } from "@hono/zod-openapi";
import { closedObject, readableText } from "../../../platform/schemas";

/** The transaction sets a partner may exchange with Medparts (docs/edi.md). */
export const EDI_DOCUMENTS = ["850", "860", "855", "856", "810", "832"] as const;
export const X12_VERSIONS = ["004010", "005010"] as const;

/** An ISA interchange id qualifier (ISA05/ISA07): two letters or digits, e.g. ZZ (mutually defined), 01 (DUNS), 12 (phone). */
const qualifier = z
  .string()
  .regex(/^[0-9A-Z]{2}$/, "Two capital letters or digits (an ISA qualifier such as ZZ, 01 or 12).")
  .openapi({ example: "ZZ" });

/** Text an X12 element carries: printable ASCII, no spaces at either end (an ISA id is padded with spaces). */
const x12Text = (min: number, max: number, example: string) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[!-~](?:[ -~]*[!-~])?$/, "Printable ASCII, without spaces at either end.")
    .openapi({ example });

const identity = (description: string) => closedObject({ qualifier, id: x12Text(1, 15, "MEDPARTS") }).openapi({ description });

/** One delimiter character: printable, neither a letter, a digit nor a space (X12 data uses those). */
const delimiter = (description: string, example: string) =>
  z
    .string()
    .length(1)
    .regex(/^[!-/:-@[-`{-~]$/, "One printable character that is neither a letter, a digit nor a space.")
    .openapi({ description, example });

const DelimitersSchema = closedObject({
  element: delimiter("Between elements (ISA position 4)", "*"),
  component: delimiter("Between components of a composite element (ISA16)", ">"),
  repetition: delimiter("Between repetitions of an element (ISA11): version 005010 only", "^").nullable().optional(),
  segment: delimiter("After each segment (a line feed follows it)", "~"),
})
  .refine(
    (d) => {
      const used = [d.element, d.component, d.segment, ...(d.repetition ? [d.repetition] : [])];
      return new Set(used).size === used.length;
    },
    { message: "Each delimiter different from the others." },
  )
  .openapi("EdiDelimiters", { description: "The delimiters Medparts sends, each different from the others" });

/** A self-signed RSA 2048 certificate made for this example (CN=Example Supplier AS2); its key was thrown away. */
const EXAMPLE_CERTIFICATE =
  "-----BEGIN CERTIFICATE-----\nMIIDHzCCAgegAwIBAgIUEzUdW2dCMbSM81vhUmS/baRO30IwDQYJKoZIhvcNAQEL\nBQAwHzEdMBsGA1UEAwwURXhhbXBsZSBTdXBwbGllciBBUzIwHhcNMjYxMjA3MTA1\nMDEzWhcNMzYxMjA0MTA1MDEzWjAfMR0wGwYDVQQDDBRFeGFtcGxlIFN1cHBsaWVy\nIEFTMjCCASIwDQYJKoZIhvcNAQEBBQADggEPADCCAQoCggEBAMDdiZZh+ScZNtBA\nHAQtos6NiRyUNDm4zvZExQKeg7ug3TsmrZtaTrwNB5s68nj62Qq9BYW7KAlAZMv5\nLqq6Ket1oVoAyerBPpBnnO7IxRXPuMKFoYadLrxOy+s1Gakv0F11jn/gnodH7QuO\nq1E+1caQcKTpn1ZbxV2PD6N7/As+U6gEtod6YdVlPsEev1Si2sFjzJ7jJ5hKN/30\n7S10irC5gFJAIWmaUbRv4ZIgw1l/qjMCIHG76xOoc0is30bQYGUIpWAUZvqYZ+Em\nd48W0RbTN2I2RVCd16StwJ8nD3O/GqHYVlyxBreeXrvENq9g8sRhVnHyUhq+Pom+\nRsWPnP8CAwEAAaNTMFEwHQYDVR0OBBYEFOkW0Uow31oBEndkj6X0NtRhQ3URMB8G\nA1UdIwQYMBaAFOkW0Uow31oBEndkj6X0NtRhQ3URMA8GA1UdEwEB/wQFMAMBAf8w\nDQYJKoZIhvcNAQELBQADggEBAKC7IrFcyTGUwIm10QbsH5qPSQti8d6aQBaLwuDV\nIykj3cPjrLHjwKcANUHnQV9cEjuXuAVYjN3WiUv+qWGcnvK4bNcphwFulBXwqXup\nwfL5gnIWcuj6IEchPXUaXby6rOYpZvnVQZsefVQHFJqTaUh7u4qNH7UCygR7p+AU\nMuz5wGGSHDTDUxHH5l2sEXGGgS1qoLPAQoTkzeQ9DbnNcFw2Q1hMuYDUqvl8PTbJ\n6YjeXG6MAvf9vzBFywNgGBB+JD2pDVXZ+noBOqbxDUOVQ2NP1spgDzL4TqkWRFiq\n02yFJQkrBdSTnlKym7+a422+4oJ0FrcRUbOsgGi80oG0gKw=\n-----END CERTIFICATE-----\n";

const As2TransportSchema = closedObject({
  kind: z.literal("as2"),
  url: z.string().max(2048).openapi({
    description: "Where Medparts posts AS2 messages to the partner: https to a public host on the default port, without credentials",
    example: "https://as2.supplier.example.com/as2",
  }),
  as2From: x12Text(1, 128, "MEDPARTS").openapi({ description: "Medparts' AS2 name towards the partner (AS2-From of what we send)" }),
  as2To: x12Text(1, 128, "SUPPLIERAS2").openapi({
    description: "The partner's AS2 name (AS2-To of what we send, AS2-From of what it sends)",
  }),
  partnerCertificate: z
    .string()
    .max(16_384)
    .regex(
      /^-----BEGIN CERTIFICATE-----\r?\n(?:[A-Za-z0-9+/=]{1,76}\r?\n)+-----END CERTIFICATE-----\r?\n?$/,
      "One PEM certificate (-----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----).",
    )
    .openapi({
      description: "The partner's certificate (PEM; an RSA key, valid now): verifies its signatures and encrypts what we send it",
      example: EXAMPLE_CERTIFICATE,
    }),
  mdn: z.enum(["sync", "async"]).default("sync").openapi({ description: "How the partner returns MDNs for what we send" }),
}).openapi("EdiAs2Transport");

const MailboxTransportSchema = closedObject({ kind: z.literal("mailbox") }).openapi("EdiMailboxTransport", {
  description: "No AS2: the partner fetches and posts documents under /vendor/api/edi with its vendor client's token",
});

const partnerShape = {
  name: readableText(100).openapi({ example: "Acme Surgical EDI" }),
  usage: z.enum(["test", "production"]).openapi({ description: "ISA15: T (test) or P (production) interchanges" }),
  partnerIdentity: identity("The partner's interchange sender (ISA05/ISA06 of what it sends; ISA07/ISA08 of what we send)"),
  ourIdentity: identity("Medparts' interchange id towards the partner (ISA05/ISA06 of what we send)"),
  partnerApplicationId: x12Text(2, 15, "ACMESURG").openapi({ description: "GS02 of what it sends, GS03 of what we send" }),
  ourApplicationId: x12Text(2, 15, "MEDPARTS").openapi({ description: "GS02 of what we send, GS03 of what it sends" }),
  version: z.enum(X12_VERSIONS).openapi({ description: "The X12 version of every group (GS08) and interchange (ISA12)" }),
  delimiters: DelimitersSchema,
  acknowledgment: z
    .enum(["997", "999"])
    .openapi({ description: "The functional acknowledgment Medparts sends (999: version 005010 only)" }),
  documents: z
    .array(z.enum(EDI_DOCUMENTS))
    .min(1)
    .max(EDI_DOCUMENTS.length)
    .refine((list) => new Set(list).size === list.length, "Each transaction set once.")
    .openapi({ description: "The transaction sets exchanged, each once" }),
  orderChanges: z.enum(["860", "cancel-850", "none"]).default("none").openapi({
    description: "How a buyer's change or cancellation reaches the partner: an 860 (860 among documents), a cancelling 850, or not at all",
  }),
  acknowledgmentWindowMinutes: z
    .number()
    .int()
    .min(5)
    .max(10_080)
    .default(1440)
    .openapi({ description: "An 850 not acknowledged (997/999) within this many minutes raises an operator event" }),
  transport: z.discriminatedUnion("kind", [As2TransportSchema, MailboxTransportSchema]),
  simulatedSupplier: z.boolean().default(false).openapi({
    description:
      "A test partner over the mailbox only: Medparts answers its 850s (sandbox orders) as a supplier would, with a 997 and, on the sandbox's schedule, an 855, 856 and 810 (docs/edi.md)",
  }),
};

interface PartnerRulesInput {
  version: (typeof X12_VERSIONS)[number];
  delimiters: { repetition?: string | null };
  acknowledgment: "997" | "999";
  orderChanges: "860" | "cancel-850" | "none";
  documents: readonly string[];
  usage: "test" | "production";
  transport: { kind: string };
  simulatedSupplier: boolean;
}

/** What no single field says: rules between the version, the delimiters, the acknowledgment and the documents. */
function partnerRules(partner: PartnerRulesInput, ctx: z.RefinementCtx): void {
  if (partner.version === "004010" && (partner.delimiters.repetition ?? null) !== null) {
    ctx.addIssue({
      code: "custom",
      path: ["delimiters", "repetition"],
      message: "Version 004010 has no repetition separator (ISA11 is U).",
    });
  }
  if (partner.acknowledgment === "999" && partner.version !== "005010") {
    ctx.addIssue({ code: "custom", path: ["acknowledgment"], message: "A 999 needs version 005010." });
  }
  if (partner.orderChanges === "860" && !partner.documents.includes("860")) {
    ctx.addIssue({ code: "custom", path: ["orderChanges"], message: "860 among documents first." });
  }
  if (partner.simulatedSupplier && (partner.usage !== "test" || partner.transport.kind !== "mailbox")) {
    ctx.addIssue({
      code: "custom",
      path: ["simulatedSupplier"],
      message: "Only a test partner over the mailbox has a simulated supplier.",
    });
  }
}

export const PartnerInputSchema = closedObject(partnerShape).superRefine(partnerRules).openapi("EdiPartnerInput");
export type PartnerInput = z.output<typeof PartnerInputSchema>;

export const CreatePartnerSchema = closedObject({
  vendorId: z.number().int().positive().openapi({ description: "The vendor the partner trades for" }),
  ...partnerShape,
})
  .superRefine(partnerRules)
  .openapi("CreateEdiPartnerRequest");

export const PartnerSchema = z
  .object({
    id: z.number().int(),
    vendorId: z.number().int(),
    name: z.string(),
    usage: z.enum(["test", "production"]),
    partnerIdentity: z.object({ qualifier: z.string(), id: z.string() }),
    ourIdentity: z.object({ qualifier: z.string(), id: z.string() }),
    partnerApplicationId: z.string(),
    ourApplicationId: z.string(),
    version: z.enum(X12_VERSIONS),
    delimiters: z.object({ element: z.string(), component: z.string(), repetition: z.string().nullable(), segment: z.string() }),
    acknowledgment: z.enum(["997", "999"]),
    documents: z.array(z.enum(EDI_DOCUMENTS)),
    orderChanges: z.enum(["860", "cancel-850", "none"]),
    acknowledgmentWindowMinutes: z.number().int(),
    transport: z.union([
      z.object({
        kind: z.literal("as2"),
        url: z.string(),
        as2From: z.string(),
        as2To: z.string(),
        partnerCertificate: z.string(),
        mdn: z.enum(["sync", "async"]),
      }),
      z.object({ kind: z.literal("mailbox") }),
    ]),
    simulatedSupplier: z.boolean(),
    clientId: z.string().nullable().openapi({
      description:
        "The vendor client the partner acts through (created with it; its secret is never shown): its documents reach the vendor API as this client, within its scopes and rate limit, and disabling it stops the partner",
    }),
    createdAt: z.string().datetime(),
    updatedAt: z.string().datetime(),
  })
  .openapi("EdiPartner");
export type Partner = z.output<typeof PartnerSchema>;
