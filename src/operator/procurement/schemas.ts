import { z } from "@hono/zod-openapi";
import { closedObject, readableText } from "../../platform/schemas";

/** A cXML Credential: a domain (NetworkID, DUNS, AribaNetworkUserId...) and the identity in it. */
const credential = (description: string) =>
  closedObject({
    domain: z.string().min(1).max(100).regex(/^\S+$/, "A domain without spaces.").openapi({ example: "NetworkID" }),
    identity: z.string().min(1).max(200).regex(/\S/, "Must contain a non-space character.").openapi({ example: "AN01000000001" }),
  }).openapi({ description });

const positiveId = (description: string) => z.number().int().positive().openapi({ description });

export const ConnectionInputSchema = closedObject({
  name: readableText(100).openapi({ example: "St. Mary's Ariba" }),
  buyerIdentities: z
    .array(credential("A buyer credential"))
    .min(1)
    .max(10)
    .refine(
      (list) => new Set(list.map((c) => `${c.domain.toLowerCase()} ${c.identity.toLowerCase()}`)).size === list.length,
      "Each credential once (domain and identity compare without case).",
    )
    .openapi({
      description:
        "The buyer's From (or Sender) credentials that name this connection, each once (without case); each names one connection per mode",
    }),
  supplierIdentity: credential("Medparts' identity as the suite addresses it (the To credential)"),
  facilityId: positiveId("The facility its orders and quotes are for"),
  requesterId: positiveId("The requester (a user's contact id) its orders and quotes are made for"),
  userId: positiveId("The user its orders are placed as"),
  shipToAddressId: positiveId("The shipping address of an order whose ShipTo names no mapped addressID"),
  shipToAddresses: z
    .array(
      closedObject({
        code: z.string().min(1).max(100).openapi({ description: "The suite's ShipTo addressID", example: "SM-DOCK-1" }),
        addressId: positiveId("A shipping address of the tenant"),
      }).openapi("ProcurementShipTo"),
    )
    .max(50)
    .refine((list) => new Set(list.map((entry) => entry.code)).size === list.length, "Each code once.")
    .optional()
    .openapi({ description: "The suite's ShipTo addressIDs and the tenant's shipping addresses they name, each code once" }),
  billToAddressId: positiveId("The billing address of its orders"),
  shippingMethod: z.enum(["GROUND"]).default("GROUND").openapi({ description: "Of its orders" }),
  paymentMethod: z.enum(["PO"]).default("PO").openapi({ description: "Of its orders: the OrderRequest's orderID is the PO number" }),
  documentUrl: z.string().max(2048).nullable().optional().openapi({
    description:
      "Where Medparts posts the cXML it sends (confirmations, ship notices, invoices): https to a public host on the default port, without credentials; null: none are sent",
  }),
});
export type ConnectionInput = z.output<typeof ConnectionInputSchema>;

export const CreateConnectionSchema = ConnectionInputSchema.extend({
  tenantId: positiveId("The buyer tenant"),
  mode: z.enum(["live", "test"]).default("live").openapi({ description: 'test: the sandbox twin\'s connection (deploymentMode="test")' }),
}).openapi("CreateProcurementConnectionRequest");

export const ConnectionSchema = z
  .object({
    id: z.number().int(),
    tenantId: z.number().int(),
    mode: z.enum(["live", "test"]),
    clientId: z.string().openapi({ description: "The API client it stands on: rotate or disable the SharedSecret through it" }),
    enabled: z.boolean(),
    name: z.string(),
    buyerIdentities: z.array(z.object({ domain: z.string(), identity: z.string() })),
    supplierIdentity: z.object({ domain: z.string(), identity: z.string() }),
    facilityId: z.number().int(),
    requesterId: z.number().int(),
    userId: z.number().int(),
    shipToAddressId: z.number().int(),
    shipToAddresses: z.array(z.object({ code: z.string(), addressId: z.number().int() })),
    billToAddressId: z.number().int(),
    shippingMethod: z.string(),
    paymentMethod: z.string(),
    documentUrl: z.string().nullable(),
    createdAt: z.string().datetime(),
    updatedAt: z.string().datetime(),
  })
  .openapi("ProcurementConnection");
