import type autocannon from "autocannon";

/** One HTTP request of a scenario, relative to the server's base URL. */
export interface LoadRequest {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  baseUrl: string;
  connections: number;
  /** Seconds; ignored when `amount` is set. */
  duration: number;
  /** Stop after exactly this many requests (scenarios that consume a finite pool, e.g. single-use quotes). */
  amount?: number;
  expectedStatus: number;
  request: LoadRequest;
  /** When set, called for every request sent (unique idempotency keys, rotating products...). */
  nextRequest?: () => LoadRequest;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Transport errors, timeouts and responses with any status other than the expected one. */
  errors: number;
  statusCounts: Record<string, number>;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { request, nextRequest } = options;
  // Imported here, not at the top: a bench's --help would otherwise wait for autocannon to load.
  const { default: autocannon } = await import("autocannon");
  const result = await autocannon({
    url: options.baseUrl,
    connections: options.connections,
    duration: options.duration,
    amount: options.amount,
    timeout: 30,
    method: request.method,
    headers: request.headers,
    requests: [
      {
        method: request.method,
        path: request.path,
        headers: request.headers,
        body: request.body,
        ...(nextRequest ? { setupRequest: (req: autocannon.Request) => ({ ...req, ...nextRequest() }) } : {}),
      },
    ],
  });
  const statusCounts = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats.count ?? 0]),
  );
  const expected = statusCounts[String(options.expectedStatus)] ?? 0;
  const answered = Object.values(statusCounts).reduce((sum, count) => sum + count, 0);
  const seconds = result.duration;
  return {
    requests: answered,
    seconds,
    requestsPerSecond: seconds > 0 ? answered / seconds : 0,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: answered - expected + result.errors + result.timeouts,
    statusCounts,
  };
}
