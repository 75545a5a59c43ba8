import type { Bindings } from "../../src/env";

/**
 * Failures of the platform services, as the Workers runtime reports them (messages copied from real
 * D1/KV/Durable Object errors), injected by wrapping the bindings. Only the test entry worker
 * (test/helpers/worker.ts) uses this; the production bundle (src/index.ts) never imports it.
 */
export const FAULTS = {
  "d1-unavailable": () => new Error("D1_ERROR: Network connection lost."),
  "d1-overloaded": () => new Error("D1_ERROR: D1 DB is overloaded. Too many requests queued."),
  "d1-timeout": () => new Error("D1_ERROR: D1 DB storage operation exceeded timeout which caused object to be reset."),
  "kv-unavailable": () => new Error("KV GET failed: 503 Service Unavailable"),
  "do-unavailable": () => Object.assign(new Error("Network connection lost."), { retryable: true }),
  "do-overloaded": () => Object.assign(new Error("Durable Object is overloaded. Requests queued for too long."), { overloaded: true }),
} as const;

export type Fault = keyof typeof FAULTS;

export const isFault = (name: string): name is Fault => Object.hasOwn(FAULTS, name);

/** Every function-valued property of `target` rejects with `fail()`; `wrap` lets chained objects (statements, stubs) fail too. */
function failing<T extends object>(target: T, fail: () => Error, wrap: Record<string, (value: unknown) => unknown> = {}): T {
  return new Proxy(target, {
    get(obj, prop, receiver) {
      const value: unknown = Reflect.get(obj, prop, receiver);
      if (typeof value !== "function") return value;
      const wrapper = typeof prop === "string" ? wrap[prop] : undefined;
      if (wrapper) return (...args: unknown[]) => wrapper(value.apply(obj, args));
      return () => Promise.reject(fail());
    },
  });
}

function failingStatement(statement: D1PreparedStatement, fail: () => Error): D1PreparedStatement {
  return failing(statement, fail, { bind: (bound) => failingStatement(bound as D1PreparedStatement, fail) });
}

function failingD1(db: D1Database, fail: () => Error): D1Database {
  return failing(db, fail, { prepare: (statement) => failingStatement(statement as D1PreparedStatement, fail) });
}

function failingNamespace<T extends object>(namespace: T, fail: () => Error): T {
  const stub = (value: unknown) => failing(value as DurableObjectStub, fail);
  // idFromName and friends keep working: the failure is in reaching the object.
  return new Proxy(namespace, {
    get(obj, prop, receiver) {
      const value: unknown = Reflect.get(obj, prop, receiver);
      if (typeof value !== "function") return value;
      if (prop === "get" || prop === "getByName") return (...args: unknown[]) => stub(value.apply(obj, args));
      return value.bind(obj);
    },
  });
}

/** The bindings with the faulty service wrapped; the others untouched. */
export function withFault(env: Bindings, fault: Fault): Bindings {
  const fail = FAULTS[fault];
  if (fault.startsWith("d1-")) return { ...env, DB: failingD1(env.DB, fail) };
  if (fault.startsWith("kv-")) return { ...env, QUOTES: failing(env.QUOTES, fail) };
  return { ...env, IDEMPOTENCY: failingNamespace(env.IDEMPOTENCY, fail), RATE_LIMITER: failingNamespace(env.RATE_LIMITER, fail) };
}
