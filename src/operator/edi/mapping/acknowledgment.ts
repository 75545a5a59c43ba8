import { CONFIRMATION_CODES, FIELDS_OF, type X12Code } from "../../../shared/confirmations/codes";
import type { Segment, TransactionSet } from "../x12/document";
import { element } from "../x12/elements";
import { fromScaled, toScaled } from "./decimal";
import { loopAfter } from "./loops";

/**
 * The X12 855 (purchase order acknowledgment) a partner sends, read into the vendor API's confirmation request
 * (POST /vendor/api/order-confirmations, docs/api.md "Confirmations with changes"): the gateway then confirms as the
 * vendor, through the same rules as a vendor's own call. PO101 is the Medparts line id (the 850 we send numbers its
 * lines so), ACK01 the line's code, and what each code carries is the API's own table (FIELDS_OF,
 * src/shared/confirmations/codes.ts), each field read from its element: the date of ACK04/05, the
 * quantity of ACK02, the price of CTP*CON, the substitute of ACK07-10, the reason of MSG.
 */

/** ACK04 date qualifiers a ship date may come with: 068 current schedule ship, 067 current schedule delivery, 002 delivery requested. */
const SHIP_DATE_QUALIFIERS = new Set(["068", "067", "002"]);
/** ACK07-ACK10 / PO1 qualifiers that name a part number, the vendor's first. */
const PART_NUMBER_QUALIFIERS = ["VC", "VP", "MG", "UK", "IN"];

export interface ConfirmationLine {
  lineId: number;
  code: string;
  promisedShipDate?: string;
  expectedShipDate?: string;
  quantity?: number;
  unitPrice?: string;
  substitute?: { partNumber: string; description: string };
  reason?: string;
}

export interface ConfirmationFromEdi {
  /** BAK03: the PO number (the Medparts order it answers). */
  poNumber: string;
  /** BAK08: the vendor's own order number, when given. */
  vendorOrderNumber?: string;
  request: { type: "detail"; lines: ConfirmationLine[] };
  /** What the 855 says that no confirmation takes: an unknown code, a line id that is not one. */
  problems: { segment: string; message: string }[];
}

const isoDate = (ccyymmdd: string) =>
  /^\d{8}$/.test(ccyymmdd) ? `${ccyymmdd.slice(0, 4)}-${ccyymmdd.slice(4, 6)}-${ccyymmdd.slice(6)}` : undefined;

/** ACK07-ACK10's product: the vendor's part number first; described by the PID after it, else by its identifiers. */
function substituteOf(ack: Segment, description: string | undefined): ConfirmationLine["substitute"] {
  const ids: [string, string][] = [];
  for (let position = 7; element(ack, position) !== ""; position += 2) ids.push([element(ack, position), element(ack, position + 1)]);
  const named = PART_NUMBER_QUALIFIERS.map((qualifier) => ids.find(([q]) => q === qualifier)).find((id) => id !== undefined);
  if (!named) return undefined;
  return { partNumber: named[1], description: description ?? ids.map(([qualifier, id]) => `${qualifier} ${id}`).join(", ") };
}

/** The 855's lines as a confirmation of type detail, one line per ACK (the first ACK of a PO1 that has several). */
export function confirmationFrom855(set: TransactionSet): ConfirmationFromEdi {
  const body = set.segments;
  const bak = body.find((segment) => segment.id === "BAK");
  const problems: ConfirmationFromEdi["problems"] = [];
  const lines: ConfirmationLine[] = [];
  body.forEach((po1, index) => {
    if (po1.id !== "PO1") return;
    const following = loopAfter(body, index, ["PO1", "CTT", "SE"]);
    const ack = following.find((segment) => segment.id === "ACK");
    if (!ack) return; // a line the 855 restates without a status: nothing to confirm
    const code = element(ack, 1);
    const fields = CONFIRMATION_CODES.some((entry) => entry.code === code) ? FIELDS_OF[code as X12Code] : undefined;
    const lineId = Number(element(po1, 1));
    if (!fields) {
      problems.push({ segment: "ACK", message: `ACK01 ${JSON.stringify(code)} of line ${element(po1, 1)} is no confirmation code.` });
      return;
    }
    if (!Number.isSafeInteger(lineId) || lineId <= 0) {
      problems.push({ segment: "PO1", message: `PO101 ${JSON.stringify(element(po1, 1))} is not a Medparts line id.` });
      return;
    }
    const line: ConfirmationLine = { lineId, code };
    const date = SHIP_DATE_QUALIFIERS.has(element(ack, 4)) ? isoDate(element(ack, 5)) : undefined;
    const price = following.find((segment) => segment.id === "CTP" && element(segment, 2) === "CON");
    const message = following.find((segment) => segment.id === "MSG");
    const pid = following.find((segment) => segment.id === "PID");
    for (const field of fields) {
      if ((field === "promisedShipDate" || field === "expectedShipDate") && date) line[field] = date;
      if (field === "quantity" && element(ack, 2) !== "" && element(ack, 2) !== element(po1, 2)) line.quantity = Number(element(ack, 2));
      if (field === "unitPrice" && price) line.unitPrice = fromScaled(toScaled(element(price, 3)), 2);
      if (field === "substitute") {
        const substitute = substituteOf(ack, pid ? element(pid, 5) || undefined : undefined);
        if (substitute) line.substitute = substitute;
      }
      if (field === "reason" && message) line.reason = element(message, 1);
    }
    lines.push(line);
  });
  return {
    poNumber: bak ? element(bak, 3) : "",
    ...(bak && element(bak, 8) ? { vendorOrderNumber: element(bak, 8) } : {}),
    request: { type: "detail", lines },
    problems,
  };
}
