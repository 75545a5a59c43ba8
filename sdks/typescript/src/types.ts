/**
 * The SDK's view of the generated types: the customer API, the vendor API and the token endpoint, with the
 * `Idempotency-Key` header made optional (the SDK generates one when you give none).
 */
import type { Client, ClientPathsWithMethod, MaybeOptionalInit, MethodResponse } from "openapi-fetch";
import type { components, paths } from "./schema.js";

export type HttpMethod = "get" | "put" | "post" | "delete" | "patch";

/** The paths the SDK covers. */
export type SdkPathName = Extract<keyof paths, `/customer/api/${string}` | `/vendor/api/${string}` | "/auth/oauth2/token">;

type RelaxOperation<Op> = Op extends { parameters: { header: infer H } }
  ? Omit<Op, "parameters"> & {
      parameters: Omit<Op["parameters"], "header"> & {
        header?: Omit<H, "idempotency-key"> & { "idempotency-key"?: string };
      };
    }
  : Op;

type RelaxPathItem<Item> = { [M in keyof Item]: M extends HttpMethod ? RelaxOperation<Item[M]> : Item[M] };

/** `paths` of the generated schema, narrowed to {@link SdkPathName}, with `idempotency-key` optional. */
export type SdkPaths = { [P in SdkPathName]: RelaxPathItem<paths[P]> };

/** The openapi-fetch client type of {@link Medparts.raw}. */
export type RawClient = Client<SdkPaths>;

/** Every schema of the document: `Schemas["CreateOrderRequest"]`, `Schemas["Event"]`... */
export type Schemas = components["schemas"];

/** A webhook delivery's or feed entry's event (a union discriminated by `type`). */
export type MedpartsEvent = components["schemas"]["Event"];

/** A 2xx body with the `{ success, data }` envelope taken off; `undefined` for a 204. */
export type Unwrap<T> = [T] extends [never] ? undefined : T extends { success: true; data: infer D } ? D : T;

export type PathsWith<M extends HttpMethod> = ClientPathsWithMethod<RawClient, M>;

export type InitOf<M extends HttpMethod, P extends PathsWith<M>> = MaybeOptionalInit<SdkPaths[P], M>;

/** The `data` an operation answers (the envelope's `data`, or the whole body when it has no envelope). */
export type ResponseData<M extends HttpMethod, P extends PathsWith<M>, Init = Record<never, never>> = Unwrap<
  MethodResponse<RawClient, M, P, Init>
>;

/** Copied from openapi-fetch (not exported there): the init argument is optional when nothing in it is required. */
export type InitParam<Init> =
  RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];
type RequiredKeysOf<T> = { [K in keyof T]-?: Record<never, never> extends Pick<T, K> ? never : K }[keyof T];

/** A typed call that answers the unwrapped `data` and throws a {@link MedpartsError} on any non-2xx. */
export type DataMethod<M extends HttpMethod> = <P extends PathsWith<M>, Init extends InitOf<M, P>>(
  path: P,
  ...init: InitParam<Init>
) => Promise<ResponseData<M, P, Init>>;

/** The element type of a list answer: of its array properties other than `pagination` and `facets`. */
export type PageItem<D> = D extends object
  ? { [K in keyof D]-?: K extends "pagination" | "facets" ? never : NonNullable<D[K]> extends readonly (infer I)[] ? I : never }[keyof D]
  : never;

/** Paths whose `M` answer is a page: offset (`pagination.hasMore`), cursor (`nextCursor`, `cursor`) or the events feed. */
export type PaginatedPath<M extends HttpMethod> = {
  [P in PathsWith<M>]: ResponseData<M, P> extends { pagination: unknown } | { nextCursor: unknown } | { cursor: unknown } ? P : never;
}[PathsWith<M>];
