/**
 * Every problem `type` the API answers with, one entry per slug: the error page at /docs/errors/<slug> is rendered
 * from it by the developer portal's build. `ProblemError` and `problemResponse` take only these slugs (ProblemSlug,
 * ./problem-types.ts), so a new slug cannot ship without its page. `status` is the status it comes with; `happened`
 * and `toDo` are the page's two paragraphs. Only the portal's build imports the texts: the Workers import the type.
 */
export interface ProblemType {
  status: number | "4xx";
  title: string;
  happened: string;
  toDo: string;
}

const RETRY_LATER = "Retry with exponential backoff (1 s, 2 s, 4 s... with jitter), honouring `Retry-After` when the answer has it.";
const READ_AND_RETRY = "Read the resource again, decide on its current state, and send the request again if it still applies.";

export const PROBLEM_TYPES = {
  validation: {
    status: 400,
    title: "Validation failed",
    happened:
      "A field of the request is missing, malformed, out of range or unknown, or the body is not valid JSON. `errors` lists each offending field: its path in `field` (`quoteItems[1].quantity`) and the message in `detail` (clients pinned before 2026-12-07 get a map of field paths to messages).",
    toDo: "Fix each field `errors` names and send the request again. An unknown field names the one probably meant (`lineID`: did you mean `lineIds`?). Do not retry unchanged.",
  },
  "invalid-search-query": {
    status: 400,
    title: "Invalid search query",
    happened:
      "The `q` expression could not be read: an unknown field (the detail lists the valid ones), an operator the field does not support, a substring shorter than 3 characters, or more than 10 clauses.",
    toDo: "Correct the expression as the detail says. The searchable fields and operators of each resource are in its reference.",
  },
  unauthorized: {
    status: 401,
    title: "Unauthorized",
    happened: "The request carries no bearer token, or one that is malformed, expired, revoked or meant for another API (audience).",
    toDo: "Get a token from `POST /auth/oauth2/token` with the client credentials for this API, and send it as `Authorization: Bearer <token>`. The `WWW-Authenticate` header says what was wrong.",
  },
  forbidden: {
    status: 403,
    title: "Forbidden",
    happened: "The token is valid, but the resource belongs to another tenant, or the requester may not act for that facility.",
    toDo: "Check the ids in the request: they must be your tenant's, and the requester must be allowed at the facility. Do not retry unchanged.",
  },
  "insufficient-scope": {
    status: 403,
    title: "Insufficient scope",
    happened: "The token lacks the scope this operation needs.",
    toDo: "Ask the operator to grant the client the scope (the operation's reference names it), then get a new token.",
  },
  "not-found": {
    status: 404,
    title: "Not Found",
    happened: "No route has this path, or no resource of yours has this id.",
    toDo: "Check the path and the id. Another tenant's resource also answers 404 where telling it exists would leak it.",
  },
  "price-option-not-found": {
    status: 404,
    title: "Price option not found",
    happened:
      "`POST /orders`: a `priceOptionId` does not exist, has expired (price options are quotes valid 30 days), or was quoted to another requester or facility. `errors` names the lines. The whole order is refused.",
    toDo: "Get fresh price options from catalog detail for the same requester and facility, and place the order with them under a new `Idempotency-Key`.",
  },
  "price-option-used": {
    status: 409,
    title: "Price option already ordered",
    happened: "`POST /orders`: a price option was already ordered; each one is used once. `errors` names the lines and the orders.",
    toDo: "If this is a retry of an order that went through, find that order; otherwise get new price options from catalog detail.",
  },
  "idempotency-key-reused": {
    status: 409,
    title: "Idempotency key reused",
    happened: "A return request's `Idempotency-Key` already requested another return.",
    toDo: "Use a new key for a new return; send the exact same request to replay the first one.",
  },
  "idempotency-conflict": {
    status: 409,
    title: "Idempotency conflict",
    happened:
      "The `Idempotency-Key` was used before with a different body, or the first request with it is still being processed. The detail says which.",
    toDo: "A different body needs a new key. A request still processing: retry the same request with the same key after a short wait; it then replays the first answer.",
  },
  conflict: {
    status: 409,
    title: "Conflict",
    happened:
      "The resource is not in a state that allows this request, or it changed between your read and your write. The detail says which.",
    toDo: READ_AND_RETRY,
  },
  "invalid-transition": {
    status: 409,
    title: "Invalid transition",
    happened: "The step is not allowed from the resource's current status (the detail lists the steps that are).",
    toDo: READ_AND_RETRY,
  },
  "order-changed": {
    status: 409,
    title: "Order changed",
    happened: "The order changed between the read this request relied on and its write.",
    toDo: READ_AND_RETRY,
  },
  "change-pending": {
    status: 409,
    title: "Change pending",
    happened: "A vendor's change to the line waits for the buyer's decision; the line takes no other step until then.",
    toDo: "Accept or reject the pending change first (`change-decision`), then retry.",
  },
  "change-superseded": {
    status: 409,
    title: "Change superseded",
    happened: "The change this decision answers was replaced by a newer confirmation of the vendor.",
    toDo: "Read the line again and decide on its current pending change.",
  },
  "no-change-pending": {
    status: 409,
    title: "No change pending",
    happened: "The line has no vendor change waiting for a decision.",
    toDo: "Read the line: the change may have been decided already. Do not retry unchanged.",
  },
  "line-not-confirmable": {
    status: 409,
    title: "Line cannot take this code",
    happened: "The line's status is final (delivered, cancelled or rejected); it cannot be confirmed.",
    toDo: "Read the order: nothing is left to confirm on this line.",
  },
  "line-partly-shipped": {
    status: 409,
    title: "Line partly shipped",
    happened: "Part of the line has shipped; its price, quantity or product can no longer change.",
    toDo: "Confirm the rest as it is, or settle a difference on the invoice or a credit memo.",
  },
  "line-withdrawn": {
    status: 409,
    title: "Line withdrawn",
    happened: "The repair's line was cancelled or rejected before its unit went in.",
    toDo: "Read the line: there is nothing to repair against it. Order again if the unit still needs a repair.",
  },
  "lines-not-cancellable": {
    status: 409,
    title: "Lines cannot be cancelled",
    happened: "A line to cancel has shipped, fully or in part; nothing was cancelled. `partial` says which lines could be.",
    toDo: "Read the order: lines confirmed for shipment or shipped are no longer cancellable. Return them once delivered.",
  },
  "no-contract-line": {
    status: 409,
    title: "No contract line",
    happened: "Sandbox: the `contract_price_exception` invoice scenario found no shipped line ordered at a contract price.",
    toDo: "Order a product at a contract price in test mode, ship it, then run the scenario.",
  },
  "not-delivered": {
    status: 409,
    title: "Not delivered",
    happened: "A return was requested for a line that is not `Delivered`.",
    toDo: "Wait until the line is delivered, then request the return.",
  },
  "nothing-to-credit": {
    status: 409,
    title: "Nothing to credit",
    happened: "The invoice has no amount left to credit: earlier credit memos cover it.",
    toDo: "Read the invoice and its credit memos before issuing another.",
  },
  "document-number-used": {
    status: 409,
    title: "Document number used",
    happened: "A different invoice or credit memo of yours to this buyer already has this number.",
    toDo: "Use a new document number; replay with the same number only the exact same document.",
  },
  "agreement-ended": {
    status: 409,
    title: "Agreement ended",
    happened: "The agreement's effective period is over, so it cannot be changed.",
    toDo: "Create a new agreement for the new period.",
  },
  "agreement-overlaps": {
    status: 409,
    title: "Agreement overlaps",
    happened: "Another agreement of the vendor has the same scope for an overlapping period.",
    toDo: "End the other agreement first, or narrow this one's scope or dates.",
  },
  "tier-exists": {
    status: 409,
    title: "Tier exists",
    happened: "A price tier of that name exists (names are compared ignoring case).",
    toDo: "Choose another name, or change the existing tier.",
  },
  "tenant-in-store": {
    status: 409,
    title: "Tenant served from its stores",
    happened: "The tenant is served from its own stores already.",
    toDo: "Nothing to do: the move has happened.",
  },
  "endpoint-limit": {
    status: 409,
    title: "Endpoint limit",
    happened: "The tenant has 16 webhook endpoints, the most allowed.",
    toDo: "Delete an endpoint you no longer use, then register the new one.",
  },
  "length-required": {
    status: 411,
    title: "Length Required",
    happened: "An upload came without `Content-Length`.",
    toDo: "Send the file with its length (curl does when given `--data-binary @file`).",
  },
  "payload-too-large": {
    status: 413,
    title: "Payload Too Large",
    happened: "The request body is over this operation's limit (1 MiB for JSON bodies).",
    toDo: "Send a smaller body: split a batch, or upload a file through the import's upload operation.",
  },
  "unsupported-media-type": {
    status: 415,
    title: "Unsupported Media Type",
    happened: "The operation does not accept the request's `Content-Type`.",
    toDo: "Send `Content-Type: application/json` (or the type the operation's reference lists).",
  },
  unprocessable: {
    status: 422,
    title: "Unprocessable",
    happened: "A reference in the request does not hold: an unknown product, tenant, vendor, SKU or facility. `errors` names each.",
    toDo: "Correct the references `errors` names. Do not retry unchanged.",
  },
  "business-rule": {
    status: 422,
    title: "Business rule violated",
    happened:
      "`POST /orders`: a line breaks a rule of its price option: its price is not the option's unit price, or a custom field the option requires is missing or does not match its format. `errors` has one entry per offending line; its `detail` names the line (`quoteItems[0]: ...`).",
    toDo: "Correct the lines `errors` names (the option's price and custom fields are in catalog detail) and place the order under a new `Idempotency-Key`.",
  },
  "lines-of-several-orders": {
    status: 422,
    title: "Lines of several orders",
    happened: "The lines are not all the vendor's lines of one order.",
    toDo: "Send one document per order.",
  },
  "not-an-invoice": {
    status: 422,
    title: "Not an invoice",
    happened: "Only invoices are accepted or disputed; this is a credit memo.",
    toDo: "Act on the invoice the credit memo refers to.",
  },
  "not-bought-outright": {
    status: 422,
    title: "Not bought outright",
    happened: "A line bought on exchange, on loan or for repair goes back through its own return, not a return of bought units.",
    toDo: "Use the line's core, loaner or repair return.",
  },
  "rate-limited": {
    status: 429,
    title: "Too Many Requests",
    happened: "This API client sent more requests than its rate limit allows.",
    toDo: "Wait the `Retry-After` seconds, then continue; `RateLimit-*` headers show the budget left.",
  },
  "method-not-allowed": {
    status: 405,
    title: "Method Not Allowed",
    happened: "The path exists, but not for this method.",
    toDo: "Use one of the methods the `Allow` header lists.",
  },
  "http-error": {
    status: "4xx",
    title: "HTTP error",
    happened: "The request was refused at the HTTP level before any operation ran; the title and status say how.",
    toDo: "Correct the request as the detail says. Do not retry unchanged.",
  },
  internal: {
    status: 500,
    title: "Internal Server Error",
    happened: "Something unexpected failed on our side. Nothing internal is disclosed.",
    toDo: `${RETRY_LATER} If it persists, contact support with the \`correlationId\`.`,
  },
  unavailable: {
    status: 503,
    title: "Service Unavailable",
    happened: "`POST /orders`: the idempotency store is unreachable, so the order cannot be taken safely. Nothing was written.",
    toDo: `${RETRY_LATER} Keep the same \`Idempotency-Key\`.`,
  },
  "service-unavailable": {
    status: 503,
    title: "Service Unavailable",
    happened: "A storage service is temporarily unavailable.",
    toDo: RETRY_LATER,
  },
  "upstream-timeout": {
    status: 504,
    title: "Gateway Timeout",
    happened: "A storage service did not answer in time.",
    toDo: `${RETRY_LATER} A write may have happened: POST /orders is safe to retry with the same \`Idempotency-Key\`.`,
  },
} as const satisfies Record<string, ProblemType>;
