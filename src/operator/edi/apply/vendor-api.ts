import { VENDOR_API_BASE } from "../../../platform/planes";
import { type ApiAnswer, type ApiBinding, type ApiMethod, callPlane } from "../../procurement/api";

/**
 * The vendor API as the EDI gateway calls it for a partner's vendor (issue 67): with an access token of
 * the vendor's client, through the API Worker (its service binding), pinned to the version this gateway was built with,
 * as the cXML gateway calls the customer API (../../procurement/api.ts). The vendor API's own rules, scopes and
 * idempotency apply; none is redone here.
 */
export type VendorApi = (method: ApiMethod, path: string, body?: unknown, headers?: Record<string, string>) => Promise<ApiAnswer<unknown>>;

/** `path` is under /vendor/api (e.g. `/order-confirmations`). A network failure of the binding is thrown. */
export const vendorApi =
  (env: ApiBinding, token: string): VendorApi =>
  (method, path, body, headers) =>
    callPlane(env, VENDOR_API_BASE, token, method, path, body, headers);
