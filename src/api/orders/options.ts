/**
 * Reference lists the spec leaves open (docs/decisions.md, "Orders and idempotency"): shipping methods,
 * with the carrier and service level each one puts on the shipping document, and payment methods.
 * Clients send the codes exactly as listed (the document's enums).
 */

export const SHIPPING_METHODS = {
  GROUND: { carrierName: "UPS", serviceLevel: "Ground" },
  THREE_DAY: { carrierName: "UPS", serviceLevel: "3 Day Select" },
  SECOND_DAY: { carrierName: "UPS", serviceLevel: "2nd Day Air" },
  NEXT_DAY: { carrierName: "UPS", serviceLevel: "Next Day Air" },
  NEXT_DAY_EARLY: { carrierName: "UPS", serviceLevel: "Next Day Air Early" },
  SATURDAY: { carrierName: "UPS", serviceLevel: "Next Day Air Saturday Delivery" },
  FREIGHT: { carrierName: "LTL Freight", serviceLevel: "Standard LTL" },
  WILL_CALL: { carrierName: "Customer Pickup", serviceLevel: "Will Call" },
} as const satisfies Record<string, { carrierName: string; serviceLevel: string }>;

export type ShippingMethod = keyof typeof SHIPPING_METHODS;
export const SHIPPING_METHOD_CODES = Object.keys(SHIPPING_METHODS) as [ShippingMethod, ...ShippingMethod[]];

/** PO needs a PO number; the others take one optionally as the buyer's reference. No card data is ever accepted. */
export const PAYMENT_METHOD_CODES = ["PO", "CREDIT_CARD_ON_FILE", "NET_TERMS"] as const;
export type PaymentMethod = (typeof PAYMENT_METHOD_CODES)[number];

export const ORDER_LIMITS = {
  maxLines: 50,
  maxQuantity: 9999,
  poNumberLength: 50,
  notesLength: 2000,
  requiredFieldValueLength: 500,
} as const;
