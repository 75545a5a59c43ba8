import type { ProblemFieldError } from "../../platform/errors";
import type { OpenApiDocument } from "../../platform/openapi/document";
import { ERROR_FORM, SUCCESS_AND_MONEY } from "../../platform/openapi/info";
import type { SchemaNode, VersionChange } from "../../platform/versions/change";

/** The slug of a problem `type`, whichever base it has (its last path segment). */
const slugOf = (type: unknown): string => (typeof type === "string" ? type.slice(type.lastIndexOf("/") + 1) : "");

/** `errors` entries as the map of field paths to messages that validation problems had (entries of no field are kept under `body`). */
function fieldMap(errors: readonly ProblemFieldError[]): Record<string, string[]> {
  const map: Record<string, string[]> = Object.create(null);
  for (const { field = "body", detail } of errors) map[field] = [...(map[field] ?? []), detail];
  return { ...map };
}

/**
 * The problem types whose former body always listed `errors`, empty or not (an invalid transition lists the steps
 * allowed, none from a final status); every other problem had no `errors` when it had none to give.
 */
const ALWAYS_LISTED = new Set(["invalid-transition"]);

/** A problem of this version as the body a client pinned before it got: one of the four forms of spec 7.2. */
export function formerError(problem: Record<string, unknown>): Record<string, unknown> {
  const errors = Array.isArray(problem.errors) ? (problem.errors as ProblemFieldError[]) : [];
  const slug = slugOf(problem.type);
  if (slug === "idempotency-conflict") return { error: problem.detail };
  if (slug === "business-rule") {
    return { success: false, errors: errors.map((e) => e.detail), correlationId: problem.correlationId, timestamp: problem.timestamp };
  }
  const { errors: _errors, ...rest } = problem;
  if (errors.length === 0) return ALWAYS_LISTED.has(slug) ? { ...rest, errors: [] } : rest;
  return { ...rest, errors: slug === "validation" ? fieldMap(errors) : errors.map((e) => e.detail) };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const formerProblemContent = { "application/problem+json": { schema: ref("Problem") } };

/** The components of the former forms, as the document of 2026-11-29 had them. */
const FORMER_COMPONENTS = {
  ControllerError: {
    type: "object",
    properties: {
      success: { type: "boolean", enum: [false] },
      errors: { type: "array", items: { type: "string" } },
      correlationId: { type: "string" },
      timestamp: { type: "string", format: "date-time" },
    },
    required: ["success", "errors", "correlationId", "timestamp"],
    description: "422 business-rule violation, one message per offending line",
    example: {
      success: false,
      errors: ["quoteItems[0]: price 12.50 does not match the price option's unit price 12.95"],
      correlationId: "7d0f4c52-54c2-4b55-9a3e-1d8f2b0c6a11",
      timestamp: "2026-11-23T10:15:30.000Z",
    },
  },
  IdempotencyConflict: {
    type: "object",
    properties: { error: { type: "string" } },
    required: ["error"],
    description: "409 for an Idempotency-Key in use: a different body, or the first request still processing (retry later)",
    example: { error: "the request is currently being processed" },
  },
};

/** The document's prose on answers and errors before this version. */
const FORMER_PROSE = `**Success bodies** are \`{ success: true, data, correlationId, timestamp }\`.

**Errors** use three forms: RFC 7807 problem details (\`application/problem+json\`, schema \`Problem\`;
400 validation problems carry \`errors\` as \`{ "field.path[0]": [messages] }\`, schema \`ValidationProblem\`),
422 business-rule violations as \`{ success: false, errors: [...] }\` (\`ControllerError\`), and idempotency
conflicts as \`{ error }\` (\`IdempotencyConflict\`). The token endpoint answers every error (429 and 5xx
included) in the RFC 6749 5.2 form instead: \`application/json\` \`{ error, error_description }\` (\`OAuthError\`).
Do not retry a 4xx unchanged, except 409 "the request is currently being processed"; retry 5xx with exponential
backoff and jitter, honouring \`Retry-After\`.`;

function formerDocument(document: OpenApiDocument): void {
  if (document.info.description) {
    document.info.description = document.info.description.replace(`${SUCCESS_AND_MONEY}\n\n${ERROR_FORM}`, FORMER_PROSE);
  }
  const schemas = document.components?.schemas as Record<string, SchemaNode> | undefined;
  const problem = schemas?.Problem;
  const validation = schemas?.ValidationProblem;
  if (!schemas || !problem?.properties || !validation?.properties) return;
  problem.required = problem.required?.filter((member) => member !== "errors");
  delete (problem.example as { errors?: unknown }).errors;
  problem.properties.errors = { type: "array", items: { type: "string" } };
  problem.description = "RFC 7807 problem details (application/problem+json)";
  validation.properties.errors = { type: "object", additionalProperties: { type: "array", items: { type: "string" } } };
  validation.description = "400 problem whose errors map camelCase field paths to messages";
  (validation.example as { errors?: unknown }).errors = { "quoteItems[1].quantity": ["Too small: expected number to be >=1"] };
  delete schemas.ProblemFieldError;
  Object.assign(schemas, structuredClone(FORMER_COMPONENTS));
  for (const { operation, status, description } of FORMER_RESPONSES) {
    const [method, path] = operation.split(" ") as [string, string];
    const documented = (document.paths?.[path] as Record<string, { responses?: Record<string, SchemaNode> }> | undefined)?.[method];
    const response = documented?.responses?.[status];
    if (!response) continue;
    response.description = description;
    response.content =
      status === "422"
        ? { "application/json": { schema: ref("ControllerError") } }
        : { "application/json": { schema: ref("IdempotencyConflict") }, ...formerProblemContent };
  }
}

/** The responses whose content was the spec's own forms before this version, with their descriptions then. */
const FORMER_RESPONSES = [
  {
    operation: "post /customer/api/orders",
    status: "409",
    description: "Idempotency conflict ({ error }) or a price option already ordered (problem details)",
  },
  {
    operation: "post /customer/api/orders",
    status: "422",
    description: "Business rule: price mismatch, product mismatch, custom field missing or invalid, wrong address",
  },
  {
    operation: "post /customer/api/orders/{orderNumber}/cancel",
    status: "409",
    description:
      "Idempotency conflict ({ error }); lines already shipped or delivered without partial, or the order changed meanwhile (problem details)",
  },
  {
    operation: "post /customer/api/recalls/{recallId}/returns",
    status: "409",
    description:
      "Idempotency conflict ({ error }: the key is in use or was used with another body), or an order changed meanwhile (problem details: retry with the same key)",
  },
];

/**
 * Every error of the customer, vendor and operator APIs is a problem document (RFC 9457) with `errors`, an array of
 * `{ field?, detail }`, whatever the status. Clients pinned before get the spec's four forms (section 7.2): a 409
 * idempotency conflict as `{ error }`, a 422 business rule as `{ success: false, errors, correlationId, timestamp }`,
 * validation problems' `errors` as a map of field paths to messages, other problems' as strings (absent when empty).
 */
export const oneErrorForm: VersionChange = {
  version: "2026-12-07",
  description:
    "Every error is a problem document (`application/problem+json`) with `errors`, a list of `{ field, detail }` (`field` absent when " +
    'the message names none), whatever the status: a 409 idempotency conflict (type `idempotency-conflict`) was `{ "error" }`, a 422 ' +
    'business rule (`business-rule`) was `{ "success": false, "errors": [...] }`, a 400\'s `errors` was a map of field paths to messages.',
  operations: [],
  problem: formerError,
  document: formerDocument,
};
