import type { OpenApiDocument } from "../openapi/document";
import type { ApiVersion } from "./calendar";

/** A schema of the OpenAPI document, as a version change's `document` transform edits it. */
export interface SchemaNode {
  [keyword: string]: unknown;
  type?: string | string[];
  description?: string;
  example?: unknown;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
}

/** What a version change's transforms see of the exchange: the operation and the values its path matched. */
export interface Exchange {
  /** The operation as the OpenAPI document names it: `delete /customer/api/webhook-endpoints/{id}`. */
  operation: string;
  params: Record<string, string>;
  correlationId: string;
}

/**
 * One breaking change, written once (docs/api.md, "Versions"): released in `version`, it touches the listed
 * operations. A request at an older version walks forward through every change after it (`request`), the handler
 * answers at the latest version, and the answer walks back through the same changes, newest first (`response`).
 */
export interface VersionChange {
  version: ApiVersion;
  /** What changed and why, as the changelog says it. */
  description: string;
  /** The operations it touches, as the OpenAPI document names them (method and path template). */
  operations: readonly string[];
  /**
   * A request's JSON body at the version before this change -> the body at this change's version (a field renamed, a
   * default made explicit). The handler and its validation see only the latest version's body.
   */
  request?: (body: unknown, exchange: Exchange) => unknown;
  /** The answer at the latest version -> the answer at the version before this change. */
  response?: (response: Response, exchange: Exchange) => Response | Promise<Response>;
  /**
   * A problem details body (application/problem+json) at this version -> the body before it, whatever the operation
   * (a 401 or a 404 answers no operation); `operations` need not list them.
   */
  problem?: (problem: Record<string, unknown>) => Record<string, unknown>;
  /** An event (feed item or webhook body) at this version -> the event before it; the stored event is never changed. */
  event?: (event: Record<string, unknown>) => Record<string, unknown>;
  /**
   * An event stored before this change was released -> the event as this change's version writes it (a new object, or
   * the same one when it already is): stored events are never rewritten, so each is read as the latest version.
   */
  storedEvent?: <E extends object>(event: E) => E;
  /** The OpenAPI document at this version -> the document before it (changed in place). */
  document?: (document: OpenApiDocument) => void;
}
