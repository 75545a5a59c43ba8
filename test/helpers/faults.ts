import type { Bindings } from "../../src/env";

/**
 * Failures of the platform services, as the Workers runtime reports them (messages copied from real
 * D1/KV/Durable Object errors), injected by wrapping the bindings (`withMethods`, which tests also use to put
 * their own step between a binding's calls). The test entry worker (test/helpers/worker.ts) injects them; the
 * production bundle (src/api/index.ts) never imports this.
 */
export const FAULTS = {
  "d1-unavailable": () => new Error("D1_ERROR: Network connection lost."),
  "d1-overloaded": () => new Error("D1_ERROR: D1 DB is overloaded. Too many requests queued."),
  "d1-timeout": () => new Error("D1_ERROR: D1 DB storage operation exceeded timeout which caused object to be reset."),
  "kv-unavailable": () => new Error("KV GET failed: 503 Service Unavailable"),
  "do-unavailable": () => Object.assign(new Error("Network connection lost."), { retryable: true }),
  "do-overloaded": () => Object.assign(new Error("Durable Object is overloaded. Requests queued for too long."), { overloaded: true }),
} as const;

/**
 * Crashes at the step boundaries of an idempotent write, as a runtime restart or a lost connection leaves them
 * (docs/architecture.md, "Crash-safe idempotency"):
 * - `idempotency-record-lost`: the key's lock in the tenant's store never hears how an attempt the Worker ran ended
 *   (the store's `completeIdempotent`/`releaseIdempotent` fail), as when the isolate dies right after the commit; its
 *   processing marker stays;
 * - `idempotency-forgets`: the key's lock has lost its attempts: every attempt the Worker asks about is told to proceed
 *   (a request the store runs whole decides inside the store, which this does not reach);
 * - `catalog-unavailable`: the catalog's database (`CATALOG`) fails as `d1-unavailable` makes `DB` fail;
 * - `tenant-store-unavailable`: no tenant store can be reached;
 * - `store-reply-lost`: a tenant store's order creation (`placeOrder`) runs and commits, then its reply is lost (the
 *   Worker sees a network error);
 * - `tenant-store-timeout`: every tenant store's storage times out (the object is reset);
 * - `d1-batch-reply-lost`: a D1 batch that writes commits, then its reply is lost (the Worker sees a network
 *   error); read-only batches are untouched;
 * - `dies-after-commit`: the isolate dies right after the first D1 batch that writes commits: that batch's reply and
 *   every later call to D1 or a tenant store fail, so nothing the request would do next (a push, an answer) happens.
 */
const STEP_FAULTS = {
  "idempotency-record-lost": (env: Bindings): Bindings => ({
    ...env,
    TENANT_STORE: namespaceWith(env.TENANT_STORE, {
      completeIdempotent: () => Promise.reject(FAULTS["do-unavailable"]()),
      releaseIdempotent: () => Promise.reject(FAULTS["do-unavailable"]()),
    }),
  }),
  "idempotency-forgets": (env: Bindings): Bindings => ({
    ...env,
    TENANT_STORE: namespaceWith(env.TENANT_STORE, {
      beginIdempotent: () => Promise.resolve({ outcome: "proceed", attemptId: crypto.randomUUID() }),
      completeIdempotent: () => Promise.resolve(false),
      releaseIdempotent: () => Promise.resolve(false),
    }),
  }),
  "catalog-unavailable": (env: Bindings): Bindings => ({ ...env, CATALOG: failingD1(env.CATALOG, FAULTS["d1-unavailable"]) }),
  "tenant-store-unavailable": (env: Bindings): Bindings => ({
    ...env,
    TENANT_STORE: failingNamespace(env.TENANT_STORE, FAULTS["do-unavailable"]),
  }),
  "store-reply-lost": (env: Bindings): Bindings => ({
    ...env,
    TENANT_STORE: namespaceAround(env.TENANT_STORE, {
      placeOrder:
        (placeOrder) =>
        async (...args: unknown[]) => {
          await placeOrder(...args);
          throw FAULTS["do-unavailable"]();
        },
    }),
  }),
  "tenant-store-timeout": (env: Bindings): Bindings => ({
    ...env,
    TENANT_STORE: failingNamespace(
      env.TENANT_STORE,
      () => new Error("Durable Object storage operation exceeded timeout which caused object to be reset."),
    ),
  }),
  "d1-batch-reply-lost": (env: Bindings): Bindings => ({
    ...env,
    DB: afterBatchCommits(env.DB, async (statements) => {
      if (statements.some(writes)) throw FAULTS["d1-unavailable"]();
    }),
  }),
  "dies-after-commit": (env: Bindings): Bindings => {
    let dead = false;
    const isDead = () => dead;
    return {
      ...env,
      DB: afterBatchCommits(failingOnceDead(env.DB, isDead), async (statements) => {
        if (!statements.some(writes)) return;
        dead = true;
        throw FAULTS["d1-unavailable"]();
      }),
      TENANT_STORE: mapStubs(env.TENANT_STORE, (stub) => stubFailingOnceDead(stub, isDead)),
    };
  },
} as const;

const writes = (statement: D1PreparedStatement) => /^\s*(insert|update|delete)\b/i.test(sqlOf(statement));

export type Fault = keyof typeof FAULTS | keyof typeof STEP_FAULTS;

export const isFault = (name: string): name is Fault => Object.hasOwn(FAULTS, name) || Object.hasOwn(STEP_FAULTS, name);

/** The SQL text of a prepared statement (workerd keeps it in a `statement` field the types do not declare). */
export const sqlOf = (statement: D1PreparedStatement): string => (statement as { statement?: string }).statement ?? "";

type Method = (...args: any[]) => any;

/**
 * `target` with some methods replaced, each made from the original (bound to `target`); every other method is bound to
 * `target` as well, as the runtime's bindings need their own `this`.
 */
export function withMethods<T extends object>(target: T, replacements: Record<string, (original: Method) => Method>): T {
  return new Proxy(target, {
    get(obj, prop) {
      const value: unknown = Reflect.get(obj, prop, obj);
      if (typeof value !== "function") return value;
      const original = value.bind(obj) as Method;
      const replace = typeof prop === "string" && Object.hasOwn(replacements, prop) ? replacements[prop] : undefined;
      return replace ? replace(original) : original;
    },
  });
}

/**
 * D1 whose statements are held until `count` of them have been issued, then all go at once: a race in which every
 * racer's first statement (a check, say) runs before any racer's second (the write the check allows).
 */
export function statementsReleasedTogether(db: D1Database, count: number): D1Database {
  let issued = 0;
  let release = () => {};
  const together = new Promise<void>((resolve) => {
    release = resolve;
  });
  const held =
    (execute: Method) =>
    async (...args: unknown[]) => {
      if (++issued >= count) release();
      await together;
      return execute(...args);
    };
  return aroundStatementCalls(db, held);
}

/** D1 whose prepared statements' calls (`all`, `first`, `raw`, `run`, after any `bind`) each go through `around`. */
function aroundStatementCalls(db: D1Database, around: (execute: Method) => Method): D1Database {
  const statement = (s: D1PreparedStatement): D1PreparedStatement =>
    withMethods(s, {
      bind:
        (bind) =>
        (...args: unknown[]) =>
          statement(bind(...args)),
      all: around,
      first: around,
      raw: around,
      run: around,
    });
  return withMethods(db, {
    prepare:
      (prepare) =>
      (...args: unknown[]) =>
        statement(prepare(...args)),
  });
}

/**
 * D1 whose `batch` commits as usual, then calls `afterCommit` with the statements before answering: it may throw
 * (the reply is lost) or never return (the runtime dies there). Everything else passes through.
 */
export function afterBatchCommits(db: D1Database, afterCommit: (statements: D1PreparedStatement[]) => Promise<void>): D1Database {
  return withMethods(db, {
    // The app runs each request in a D1 session: its batches commit through the session.
    withSession:
      (withSession) =>
      (...args: unknown[]) =>
        afterBatchCommits(withSession(...args), afterCommit),
    batch: (batch) => async (statements: D1PreparedStatement[]) => {
      const results = await batch(statements);
      await afterCommit(statements);
      return results;
    },
  });
}

/** The namespace with every stub it hands out (`get`, `getByName`) passed through `wrapStub`; ids keep working. */
function mapStubs<T extends object>(namespace: T, wrapStub: (stub: object) => object): T {
  const wrapped =
    (get: Method) =>
    (...args: unknown[]) =>
      wrapStub(get(...args));
  return withMethods(namespace, { get: wrapped, getByName: wrapped });
}

/** Durable Object stubs of `namespace` whose named methods are replaced, each made from the stub's own method. */
export function namespaceAround<T extends object>(namespace: T, replacements: Record<string, (original: Method) => Method>): T {
  return mapStubs(
    namespace,
    (stub) =>
      new Proxy(stub, {
        get(obj, prop, receiver) {
          const value = Reflect.get(obj, prop, receiver);
          const replace = typeof prop === "string" && Object.hasOwn(replacements, prop) ? replacements[prop] : undefined;
          return replace ? replace((...args: unknown[]) => value(...args)) : value;
        },
      }),
  );
}

/** Durable Object stubs of `namespace` whose named methods are replaced. */
function namespaceWith<T extends object>(namespace: T, methods: Record<string, (...args: unknown[]) => Promise<unknown>>): T {
  return namespaceAround(namespace, Object.fromEntries(Object.entries(methods).map(([name, method]) => [name, () => method])));
}

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
  return failing(db, fail, {
    prepare: (statement) => failingStatement(statement as D1PreparedStatement, fail),
    // The app runs each request in a D1 session (src/platform/read-replicas.ts): the session fails alike.
    withSession: (session) => failingD1(session as D1Database, fail),
    getBookmark: (bookmark) => bookmark,
  });
}

/** D1 whose every call rejects as `d1-unavailable` once `dead()` holds; until then, as it was. */
function failingOnceDead(db: D1Database, dead: () => boolean): D1Database {
  const guarded =
    (call: Method) =>
    (...args: unknown[]) =>
      dead() ? Promise.reject(FAULTS["d1-unavailable"]()) : call(...args);
  return withMethods(aroundStatementCalls(db, guarded), {
    batch: guarded,
    withSession:
      (withSession) =>
      (...args: unknown[]) =>
        failingOnceDead(withSession(...args), dead),
  });
}

/** A Durable Object stub whose methods reject as `do-unavailable` once `dead()` holds. */
const stubFailingOnceDead = (stub: object, dead: () => boolean): object =>
  new Proxy(stub, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      return typeof value === "function" && dead() ? () => Promise.reject(FAULTS["do-unavailable"]()) : value;
    },
  });

function failingNamespace<T extends object>(namespace: T, fail: () => Error): T {
  // idFromName and friends keep working: the failure is in reaching the object.
  return mapStubs(namespace, (stub) => failing(stub, fail));
}

/** The bindings with the faulty service wrapped; the others untouched. */
export function withFault(env: Bindings, fault: Fault): Bindings {
  if (fault in STEP_FAULTS) return STEP_FAULTS[fault as keyof typeof STEP_FAULTS](env);
  const fail = FAULTS[fault as keyof typeof FAULTS];
  if (fault.startsWith("d1-")) return { ...env, DB: failingD1(env.DB, fail) };
  if (fault.startsWith("kv-")) return { ...env, QUOTES: failing(env.QUOTES, fail) };
  return { ...env, RATE_LIMITER: failingNamespace(env.RATE_LIMITER, fail) };
}
