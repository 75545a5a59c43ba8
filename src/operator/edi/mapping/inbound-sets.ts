import type { Partner } from "../partners/schemas";
import type { FunctionalGroup } from "../x12/document";
import { type ConfirmationFromEdi, confirmationFrom855 } from "./acknowledgment";
import { type InvoiceFromEdi, invoiceFrom810 } from "./invoice";
import { type OfferDefaults, type PriceFileRow, priceFileFrom832 } from "./price-catalog";
import { type ShipNotice, shipmentsFrom856 } from "./ship-notice";

/**
 * What each transaction set a partner sent becomes (docs/edi.md, "Receiving"): the one table of which set is read by
 * which mapping. A set of a kind the partner does not exchange (its `documents`), or that Medparts does not read, is
 * refused by name, never guessed at.
 */

export type MappedSet =
  | { set: "855"; controlNumber: string; confirmation: ConfirmationFromEdi }
  | { set: "856"; controlNumber: string; shipNotice: ShipNotice }
  | { set: "810"; controlNumber: string; invoice: InvoiceFromEdi }
  | { set: "832"; controlNumber: string; priceFile: { rows: PriceFileRow[]; problems: { segment: string; message: string }[] } }
  | { set: string; controlNumber: string; refused: string };

const INBOUND_SETS = ["855", "856", "810", "832"] as const;

export function mapInboundGroup(group: FunctionalGroup, partner: Pick<Partner, "documents">, offerDefaults: OfferDefaults): MappedSet[] {
  return group.sets.map((set): MappedSet => {
    const { id, controlNumber } = set;
    if (!(INBOUND_SETS as readonly string[]).includes(id))
      return { set: id, controlNumber, refused: `Medparts does not take ${id} from partners.` };
    if (!(partner.documents as readonly string[]).includes(id))
      return { set: id, controlNumber, refused: `The partner does not exchange ${id}s (its documents).` };
    switch (id) {
      case "855":
        return { set: id, controlNumber, confirmation: confirmationFrom855(set) };
      case "856":
        return { set: id, controlNumber, shipNotice: shipmentsFrom856(set) };
      case "810":
        return { set: id, controlNumber, invoice: invoiceFrom810(set) };
      default:
        return { set: "832", controlNumber, priceFile: priceFileFrom832(set, offerDefaults) };
    }
  });
}
