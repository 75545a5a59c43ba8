/**
 * Examples that document an identifier's shape but must not be sent as they are: the portal's Try-it sends every
 * example it finds, so it replaces these with a fresh value or leaves them out (portal/assets/reference.js).
 */
export const CORRELATION_ID_EXAMPLE = "erp-order-batch-42";
export const IDEMPOTENCY_KEY_EXAMPLE = "3f1c2a4e-8b7d-4c6e-9a1f-2b3c4d5e6f70";
/** The shape of a D1 session bookmark: one from another session is no bookmark of yours. */
export const SESSION_BOOKMARK_EXAMPLE = "00000001-00000002-00004e2f-0a83ea2fceebc654de0640c422be4653";
/** The demo data's first event (order 100001's order.created): gone once housekeeping purges old events. */
export const EVENT_ID_EXAMPLE = "00000000-0000-4000-8000-000000100001";

export const TRY_IT_EXAMPLES = {
  /** Headers sent with a new random UUID in place of the example: a new request, a new id. */
  freshHeaders: { "X-Correlation-Id": CORRELATION_ID_EXAMPLE, "Idempotency-Key": IDEMPOTENCY_KEY_EXAMPLE },
  /** Optional headers and query parameters left out while they hold the example. */
  omittedHeaders: { "X-Session-Bookmark": SESSION_BOOKMARK_EXAMPLE },
  omittedQuery: { after: EVENT_ID_EXAMPLE },
};
