import type { RepairRequest, RequiredFieldValue } from "../../db/schema";
import { centsToText, textToCents } from "../../platform/money";
import { repairLineViolations, termsOrBuy } from "../../shared/catalog/purchase-terms";
import type { QuoteRecord } from "../../shared/catalog/quotes";

/** Business rules of one order line against its quote (spec 2.7, 2.8, section 8). Each message names the line. */

export interface OrderLineInput {
  priceOptionId: string;
  productId: string;
  quantity: number;
  /** The unit price the buyer expects, a decimal string. */
  price: string;
  requiredFields: RequiredFieldValue[];
  /** A repair line's unit (src/shared/catalog/purchase-terms.ts). */
  repair?: Omit<RepairRequest, "description"> & { description?: string | undefined };
}

export function lineViolations(index: number, line: OrderLineInput, quote: QuoteRecord): string[] {
  const at = `quoteItems[${index}]`;
  const violations: string[] = [];
  if (line.productId !== quote.productId) {
    violations.push(
      `${at}: productId "${line.productId}" does not match price option "${quote.priceOptionId}", which is for product "${quote.productId}".`,
    );
  }
  if (textToCents(line.price) !== quote.priceCents) {
    violations.push(
      `${at}: price ${line.price} does not equal the unit price ${centsToText(quote.priceCents)} of price option "${quote.priceOptionId}".`,
    );
  }
  return [
    ...violations,
    ...repairLineViolations(at, line, termsOrBuy(quote.purchaseTerms)),
    ...customFieldViolations(at, line.requiredFields, quote),
  ];
}

/** Required fields must be present, every given value must match the vendor's formatRegex, unknown ids are refused. */
function customFieldViolations(at: string, given: RequiredFieldValue[], quote: QuoteRecord): string[] {
  const values = new Map(given.map((f) => [f.fieldId, f.value]));
  const violations: string[] = [];
  for (const field of quote.customFields) {
    const value = values.get(field.fieldId);
    values.delete(field.fieldId);
    if (value === undefined || value === "") {
      if (field.isRequired) violations.push(`${at}: required field "${field.fieldId}" (${field.prompt}) is missing. ${field.errorMessage}`);
    } else if (!new RegExp(field.formatRegex).test(value)) {
      violations.push(`${at}: field "${field.fieldId}" is invalid. ${field.errorMessage}`);
    }
  }
  for (const fieldId of values.keys()) {
    violations.push(`${at}: field "${fieldId}" is not a custom field of price option "${quote.priceOptionId}".`);
  }
  return violations;
}
