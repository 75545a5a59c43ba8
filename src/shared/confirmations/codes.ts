/**
 * The line statuses of a purchase order acknowledgement (X12 855, ACK01) a healthcare vendor sends, each with the name
 * the API also takes, its meaning and what it does to the line (docs/api.md, "Confirmations"). The one place that says
 * which codes exist and what they need.
 */

/** What a code does to the line. */
export type CodeEffect =
  /** The line is accepted as ordered (Acknowledged), possibly with a new promised date. */
  | "accept"
  /** The line is accepted with changed terms (price, quantity, product): applied at once when they cost the buyer nothing more, else the line waits for the buyer. */
  | "change"
  /** The line is backordered (Backordered) with an expected ship date. */
  | "backorder"
  /** The line is held by the vendor: its status stays, the code and reason show why it does not move. */
  | "hold"
  /** The line is withdrawn by the vendor (Rejected), with the code's meaning as the reason. */
  | "reject";

export interface ConfirmationCode {
  code: string;
  name: string;
  meaning: string;
  effect: CodeEffect;
}

export const CONFIRMATION_CODES = [
  { code: "IA", name: "accepted", meaning: "Item accepted", effect: "accept" },
  { code: "IB", name: "backordered", meaning: "Item backordered", effect: "backorder" },
  { code: "IC", name: "accepted_with_changes", meaning: "Item accepted, changes made", effect: "change" },
  { code: "IP", name: "price_changed", meaning: "Item accepted, price changed", effect: "change" },
  { code: "IQ", name: "quantity_changed", meaning: "Item accepted, quantity changed", effect: "change" },
  { code: "IS", name: "substituted", meaning: "Item accepted, substitution made", effect: "change" },
  { code: "DR", name: "date_rescheduled", meaning: "Item accepted, date rescheduled", effect: "accept" },
  { code: "SP", name: "schedule_pending", meaning: "Item accepted, schedule date pending", effect: "accept" },
  { code: "BP", name: "partial_backordered", meaning: "Item accepted, partial shipment, balance backordered", effect: "backorder" },
  { code: "IH", name: "on_hold", meaning: "Item on hold", effect: "hold" },
  { code: "ID", name: "deleted", meaning: "Item deleted", effect: "reject" },
  { code: "IR", name: "rejected", meaning: "Item rejected", effect: "reject" },
  { code: "R1", name: "not_contract_item", meaning: "Item rejected, not a contract item", effect: "reject" },
  { code: "R2", name: "invalid_product_number", meaning: "Item rejected, invalid item product number", effect: "reject" },
  { code: "R3", name: "invalid_unit_of_issue", meaning: "Item rejected, invalid unit of issue", effect: "reject" },
  { code: "R4", name: "contract_item_unavailable", meaning: "Item rejected, contract item not available", effect: "reject" },
] as const satisfies readonly ConfirmationCode[];

export type KnownCode = (typeof CONFIRMATION_CODES)[number];
export type X12Code = KnownCode["code"];
export type CodeName = (typeof CONFIRMATION_CODES)[number]["name"];

/** Every way a code may be sent: the X12 code or its name. */
export const CODE_SPELLINGS = CONFIRMATION_CODES.flatMap((entry) => [entry.code, entry.name]) as readonly (X12Code | CodeName)[];

/** The code an X12 code or a name stands for (exact spelling; the schema has already refused anything else). */
export function codeOf(spelling: string): KnownCode {
  const found = CONFIRMATION_CODES.find((entry) => entry.code === spelling || entry.name === spelling);
  if (!found) throw new RangeError(`unknown confirmation code ${spelling}`);
  return found;
}

/**
 * The order-level acknowledgement type, as cXML's ConfirmationRequest names it (ConfirmationHeader type):
 * - accept: every line listed is accepted as ordered (IA);
 * - reject: every line listed is rejected (IR);
 * - backordered: every line listed is backordered (IB);
 * - detail: each line listed carries its own code;
 * - except: the lines listed carry their codes, and every other open line of the vendor on the order is accepted (IA).
 */
export const CONFIRMATION_TYPES = ["accept", "detail", "except", "backordered", "reject"] as const;
export type ConfirmationType = (typeof CONFIRMATION_TYPES)[number];

/** The code a line takes by the confirmation's type when it does not carry its own. */
export const IMPLIED_CODE: Readonly<Record<ConfirmationType, X12Code | null>> = {
  accept: "IA",
  reject: "IR",
  backordered: "IB",
  detail: null,
  except: null,
};

/** The fields of a confirmation line besides its line and code (POST /vendor/api/order-confirmations). */
export type ConfirmationField = "unitPrice" | "quantity" | "substitute" | "promisedShipDate" | "expectedShipDate" | "reason";

/** Which of a line's fields a code takes: any other is refused, so nothing the vendor sends is silently ignored. */
export const FIELDS_OF: Readonly<Record<X12Code, readonly ConfirmationField[]>> = {
  IA: ["promisedShipDate"],
  DR: ["promisedShipDate"],
  SP: [],
  IB: ["expectedShipDate", "reason"],
  BP: ["quantity", "promisedShipDate", "expectedShipDate", "reason"],
  IC: ["unitPrice", "quantity", "substitute", "promisedShipDate", "reason"],
  IP: ["unitPrice", "promisedShipDate", "reason"],
  IQ: ["quantity", "promisedShipDate", "reason"],
  IS: ["substitute", "unitPrice", "promisedShipDate", "reason"],
  IH: ["reason"],
  ID: ["reason"],
  IR: ["reason"],
  R1: ["reason"],
  R2: ["reason"],
  R3: ["reason"],
  R4: ["reason"],
};
