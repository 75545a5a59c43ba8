export { Medparts, type MedpartsOptions } from "./client.js";
export {
  ApiServerError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  IdempotencyConflictError,
  InvalidRequestError,
  MedpartsError,
  NotFoundError,
  type OAuthErrorBody,
  PermissionError,
  type ProblemDocument,
  type ProblemFieldError,
  RateLimitError,
  SignatureVerificationError,
} from "./errors.js";
export type { components, operations, paths, webhooks as webhookEvents } from "./schema.js";
export type { FetchLike } from "./transport.js";
export type {
  DataMethod,
  MedpartsEvent,
  PageItem,
  PaginatedPath,
  RawClient,
  ResponseData,
  Schemas,
  SdkPathName,
  SdkPaths,
} from "./types.js";
export { API_VERSION, SDK_VERSION } from "./version.js";
export {
  constructEvent,
  DEFAULT_TOLERANCE_SECONDS,
  type RawBody,
  SIGNATURE_HEADER,
  signPayload,
  type VerifyOptions,
  verifySignature,
} from "./webhooks.js";
