// Generated from the Medparts OpenAPI document, API version 2026-12-07, by `npm run sdk:generate`: do not edit.

/**
 * The POSTs and PATCHes the API deduplicates by Idempotency-Key: the only ones sent again after a failure that leaves
 * unknown whether the first was applied (a network error, a timeout, a 5xx). GET, PUT and DELETE are safe to resend.
 */
export const KEYED_WRITES: readonly string[] = [
  "POST /customer/api/orders",
  "POST /customer/api/orders/{orderNumber}/cancel",
  "POST /customer/api/orders/{orderNumber}/lines/{lineId}/returns",
  "POST /customer/api/recalls/{recallId}/returns",
];
