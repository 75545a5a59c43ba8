import { type Bindings, envWith } from "../../src/env";

export const ROUND_TRIPS_HEADER = "X-Bench-Round-Trips";
/** Sent by the bench on the requests whose round trips it samples (at rtt 0 the others are not probed). */
export const COUNT_ROUND_TRIPS_HEADER = "X-Bench-Count-Round-Trips";

export type Service = "d1" | "kv" | "do";
export type RoundTrips = Record<Service, number>;

/** The counts of a `RoundTripProbe.summary()` header (NaN for a service it does not name). */
export function parseRoundTrips(header: string | null): RoundTrips {
  const counts = Object.fromEntries((header ?? "").split(";").map((part) => part.split("=")));
  return { d1: Number(counts.d1 ?? Number.NaN), kv: Number(counts.kv ?? Number.NaN), do: Number(counts.do ?? Number.NaN) };
}

/** D1 statement and session methods that reach the database; `prepare`/`bind` only build a statement. */
const D1_CALLS = new Set(["first", "all", "run", "raw", "batch", "exec", "dump"]);
const KV_CALLS = new Set(["get", "getWithMetadata", "put", "delete", "list"]);
/** Durable Object namespace methods that only make ids or stubs, without a network hop. */
const DO_LOCAL = new Set(["idFromName", "idFromString", "newUniqueId", "jurisdiction", "get", "getByName"]);
const STUB_MAKERS = new Set(["get", "getByName"]);

export interface Call {
  service: Service;
  startedAt: number;
  endedAt?: number;
}

/**
 * Counts a request's *sequential* round trips per service: the depth of its chain of calls, where a call that
 * starts before an earlier one has ended overlaps it (the request waits once for both). Calls still in flight when
 * the response is ready (background work, e.g. `waitUntil`) do not delay it and are not counted. Every call is
 * delayed by `rttMs` first, as a primary that far away would. Order is tracked by event number, not by clock:
 * the runtime's clock stands still between I/O events.
 */
export class RoundTripProbe {
  private readonly calls: Call[] = [];
  private events = 0;

  constructor(private readonly rttMs: number) {}

  /** The `X-Bench-Round-Trips` header value; `parseRoundTrips` reads it back. */
  summary(): string {
    const counts = countSequential(this.calls);
    return `d1=${counts.d1};kv=${counts.kv};do=${counts.do}`;
  }

  /** The request's sequential round trips whatever their service: calls of two services side by side are one wait. */
  depth(): number {
    return chainDepth(this.calls);
  }

  wrap(env: Bindings): Bindings {
    return envWith(env, {
      DB: this.d1(env.DB),
      CATALOG: this.d1(env.CATALOG),
      QUOTES: this.service("kv", env.QUOTES, (name) => KV_CALLS.has(name)),
      RATE_LIMITER: this.namespace(env.RATE_LIMITER),
      TENANT_STORE: this.namespace(env.TENANT_STORE),
    });
  }

  private async around<T>(service: Service, call: () => Promise<T>): Promise<T> {
    const record: Call = { service, startedAt: this.events++ };
    this.calls.push(record);
    try {
      if (this.rttMs > 0) await new Promise((resolve) => setTimeout(resolve, this.rttMs));
      return await call();
    } finally {
      record.endedAt = this.events++;
    }
  }

  /** `target` with the methods `isCall` names timed and counted; other function results pass through `chain`. */
  private service<T extends object>(
    service: Service,
    target: T,
    isCall: (name: string) => boolean,
    chain?: (value: unknown, name: string) => unknown,
  ): T {
    return new Proxy(target, {
      get: (obj, prop) => {
        const value: unknown = Reflect.get(obj, prop, obj);
        if (typeof value !== "function" || typeof prop !== "string") return value;
        if (isCall(prop)) return (...args: unknown[]) => this.around(service, () => Reflect.apply(value, obj, args.map(unwrap)));
        return (...args: unknown[]) => {
          const result = Reflect.apply(value, obj, args.map(unwrap));
          return chain ? chain(result, prop) : result;
        };
      },
    });
  }

  private d1<T extends object>(db: T): T {
    const wrapAny = (value: unknown): unknown =>
      value && typeof value === "object" && !(value instanceof Promise)
        ? remember(
            this.service("d1", value, (n) => D1_CALLS.has(n), wrapAny),
            value,
          )
        : value;
    return wrapAny(db) as T;
  }

  private namespace<T extends object>(namespace: T): T {
    const stub = (value: unknown, name: string): unknown =>
      STUB_MAKERS.has(name) && value && typeof value === "object"
        ? remember(
            this.service("do", value, () => true),
            value,
          )
        : value;
    return this.service("do", namespace, (name) => !DO_LOCAL.has(name), stub);
  }
}

/**
 * Per service, the longest chain of calls in which each starts after the previous one has ended: with every call
 * costing one round trip, the request waits at least that many round trips for the service.
 */
export function countSequential(calls: readonly Call[]): RoundTrips {
  const counts: RoundTrips = { d1: 0, kv: 0, do: 0 };
  for (const service of ["d1", "kv", "do"] as const) counts[service] = chainDepth(calls.filter((c) => c.service === service));
  return counts;
}

/** The longest chain of `calls` in which each starts after the previous one has ended (calls not ended left out). */
export function chainDepth(calls: readonly Call[]): number {
  const ended = calls.filter((c) => c.endedAt !== undefined);
  const depth = ended.map(() => 1);
  ended.forEach((call, i) => {
    for (let j = 0; j < i; j++) if (ended[j]!.endedAt! < call.startedAt) depth[i] = Math.max(depth[i]!, depth[j]! + 1);
  });
  return Math.max(0, ...depth);
}

/** Statements passed back into the runtime (D1 `batch`) must be the runtime's own objects, not proxies. */
const originals = new WeakMap<object, object>();
function remember<T extends object>(proxy: T, original: object): T {
  originals.set(proxy, original);
  return proxy;
}
function unwrap(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrap);
  return (value && typeof value === "object" && originals.get(value)) || value;
}
