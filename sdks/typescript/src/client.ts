import createClient from "openapi-fetch";
import { errorFromResponse } from "./errors.js";
import { nextPageInit, pageItems } from "./pagination.js";
import { type FetchLike, generatedKeys, Transport } from "./transport.js";
import type {
  DataMethod,
  HttpMethod,
  InitOf,
  InitParam,
  MedpartsEvent,
  PageItem,
  PaginatedPath,
  PathsWith,
  RawClient,
  ResponseData,
  SdkPaths,
} from "./types.js";
import { API_VERSION } from "./version.js";

export interface MedpartsOptions {
  /** The API client's id: a buyer (`/customer/api`; test-mode ids start with `mpc_test_`) or a vendor (`/vendor/api`). */
  clientId: string;
  clientSecret: string;
  /** The deployment, without a path. Default `http://localhost:8787` (a local `npm start`). */
  baseUrl?: string;
  /** Sent as `Medparts-Version` on every request. Default {@link API_VERSION}, the version the types describe. */
  version?: string;
  /** Retries of 429, 503, 504, an idempotency conflict still in progress, and network errors or timeouts. Default 3. */
  maxRetries?: number;
  /** Default `globalThis.fetch`. */
  fetch?: FetchLike;
  /** Per attempt, until the response headers arrive; default 60 000. 0 turns it off. A timed-out attempt is retried. */
  timeoutMs?: number;
  /** First backoff step (doubling, with jitter, capped by maxRetryDelayMs). Default 500. */
  initialRetryDelayMs?: number;
  /** Default 8 000. */
  maxRetryDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for; the RateLimitError is thrown at once. Default 60 000. */
  maxRetryAfterMs?: number;
  /** Extra headers on every API request (not the token request). */
  headers?: Record<string, string>;
}

type Upper = "GET" | "PUT" | "POST" | "DELETE" | "PATCH";
type Low<M extends Upper> = Lowercase<M> & HttpMethod;

/**
 * The Medparts client: one per API client id (a buyer's or a vendor's).
 *
 * ```ts
 * const medparts = new Medparts({ clientId, clientSecret, baseUrl: "https://medparts.example" });
 * const order = await medparts.GET("/customer/api/orders/{orderNumber}", { params: { path: { orderNumber } } });
 * ```
 *
 * `GET`, `POST`, `PUT`, `PATCH` and `DELETE` take openapi-fetch's typed arguments and answer the response's `data`
 * (the envelope taken off; `undefined` for a 204). Any non-2xx is thrown as a {@link MedpartsError} subclass.
 */
export class Medparts {
  /**
   * The underlying openapi-fetch client, with the same auth, version, idempotency and retries: answers
   * `{ data, response }` (the whole body and the Response, for headers such as `X-Idempotency-Cached`), and throws on
   * non-2xx too. Add your own middleware with `medparts.raw.use(...)`.
   */
  readonly raw: RawClient;
  readonly baseUrl: string;
  readonly version: string;

  readonly GET: DataMethod<"get">;
  readonly POST: DataMethod<"post">;
  readonly PUT: DataMethod<"put">;
  readonly PATCH: DataMethod<"patch">;
  readonly DELETE: DataMethod<"delete">;

  readonly #transport: Transport;

  constructor(options: MedpartsOptions) {
    if (!options?.clientId || !options.clientSecret) throw new TypeError("Medparts: clientId and clientSecret are required");
    const userFetch = options.fetch;
    this.baseUrl = (options.baseUrl ?? "http://localhost:8787").replace(/\/+$/, "");
    this.version = options.version ?? API_VERSION;
    this.#transport = new Transport({
      baseUrl: this.baseUrl,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      version: this.version,
      maxRetries: Math.max(0, options.maxRetries ?? 3),
      // Called through globalThis at call time: an unbound fetch throws "Illegal invocation" in Workers and browsers.
      fetch: userFetch ?? ((input, init) => globalThis.fetch(input, init)),
      initialRetryDelayMs: options.initialRetryDelayMs ?? 500,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 8_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
      timeoutMs: options.timeoutMs ?? 60_000,
      tokenRefreshMarginMs: 60_000,
      now: () => Date.now(),
    });
    this.raw = createClient<SdkPaths>({
      baseUrl: this.baseUrl,
      fetch: this.#transport.fetch,
      headers: { Accept: "application/json", ...options.headers },
    });
    this.raw.use({
      async onResponse({ request, response }) {
        if (response.ok) return undefined;
        throw await errorFromResponse(response, {
          method: request.method,
          url: request.url,
          idempotencyKey: request.headers.get("Idempotency-Key") ?? generatedKeys.get(request),
        });
      },
    });
    const call =
      (method: Upper) =>
      (path: string, init?: unknown): Promise<unknown> =>
        this.#call(method, path, init);
    this.GET = call("GET") as DataMethod<"get">;
    this.POST = call("POST") as DataMethod<"post">;
    this.PUT = call("PUT") as DataMethod<"put">;
    this.PATCH = call("PATCH") as DataMethod<"patch">;
    this.DELETE = call("DELETE") as DataMethod<"delete">;
  }

  /** A valid access token (cached; renewed a minute before it expires). You rarely need it: every call sends it. */
  getToken(): Promise<string> {
    return this.#transport.getToken();
  }

  /** Any method by name: `medparts.request("POST", path, init)`. */
  request<M extends Upper, P extends PathsWith<Low<M>>, Init extends InitOf<Low<M>, P>>(
    method: M,
    path: P,
    ...init: InitParam<Init>
  ): Promise<ResponseData<Low<M>, P, Init>> {
    return this.#call(method, path, init[0]) as Promise<ResponseData<Low<M>, P, Init>>;
  }

  /**
   * Every page of a list, one `data` per page, following the list's own paging (offset, cursor or the events feed).
   * `init` is the first page's (its `limit` is kept for every page).
   */
  async *pages<M extends "GET" | "POST", P extends PaginatedPath<Low<M>>>(
    method: M,
    path: P,
    ...init: InitParam<InitOf<Low<M>, Extract<P, PathsWith<Low<M>>>>>
  ): AsyncGenerator<ResponseData<Low<M>, Extract<P, PathsWith<Low<M>>>>, void, undefined> {
    let next: Record<string, unknown> | undefined = (init[0] ?? {}) as Record<string, unknown>;
    while (next) {
      const data = await this.#call(method, path, next);
      yield data as ResponseData<Low<M>, Extract<P, PathsWith<Low<M>>>>;
      next = nextPageInit(method, next, data);
    }
  }

  /**
   * Every item of a list across its pages:
   *
   * ```ts
   * for await (const order of medparts.paginate("GET", "/customer/api/orders/search", { params: { query: { q } } })) ...
   * for await (const item of medparts.paginate("POST", "/customer/api/catalog/search", { body: { requesterId, facilityId } })) ...
   * ```
   */
  async *paginate<M extends "GET" | "POST", P extends PaginatedPath<Low<M>>>(
    method: M,
    path: P,
    ...init: InitParam<InitOf<Low<M>, Extract<P, PathsWith<Low<M>>>>>
  ): AsyncGenerator<PageItem<ResponseData<Low<M>, Extract<P, PathsWith<Low<M>>>>>, void, undefined> {
    const pages = this.pages as (m: M, p: P, ...i: unknown[]) => AsyncGenerator<unknown, void, undefined>;
    for await (const page of pages.call(this, method, path, ...init)) {
      yield* pageItems(page) as PageItem<ResponseData<Low<M>, Extract<P, PathsWith<Low<M>>>>>[];
    }
  }

  /**
   * The tenant's event feed (`GET /customer/api/events`), oldest first, from `after` (an event id; omitted: from the
   * oldest) to the newest. Keep the last event's `id` and pass it as `after` next time to resume.
   */
  events(query: { after?: string; types?: string | string[]; limit?: number } = {}): AsyncGenerator<MedpartsEvent, void, undefined> {
    const { types, ...rest } = query;
    const q = { ...rest, ...(types === undefined ? {} : { types: Array.isArray(types) ? types.join(",") : types }) };
    return this.paginate("GET", "/customer/api/events", { params: { query: q } }) as AsyncGenerator<MedpartsEvent, void, undefined>;
  }

  async #call(method: Upper, path: string, init: unknown): Promise<unknown> {
    const request = this.raw.request as unknown as (m: string, p: string, i?: unknown) => Promise<{ data?: unknown }>;
    const { data } = await request(method.toLowerCase(), path, init);
    return unwrap(data);
  }
}

/** The envelope's `data` (`{ success: true, data }`), or the body itself when it has no envelope. */
export function unwrap(body: unknown): unknown {
  if (typeof body === "object" && body !== null && (body as { success?: unknown }).success === true && "data" in body) {
    return (body as { data: unknown }).data;
  }
  return body;
}
