import type { Session } from "./session";

/** What the log answers of one request (GET /customer/api/request-logs, docs/api.md "Request logs"). */
export interface LoggedRequest {
  id: number;
  at: string;
  clientId: string;
  method: string;
  path: string;
  query: string | null;
  status: number;
  latencyMs: number;
  correlationId: string;
  errorType: string | null;
  problem: { detail?: string } | null;
}

/** One line a request: time, method, path, status, latency, correlation id, and an error's type and detail. */
export function logLine(request: LoggedRequest): string {
  const target = request.query ? `${request.path}?${request.query}` : request.path;
  const error = request.errorType ? `  ${request.errorType}: ${request.problem?.detail ?? ""}` : "";
  return `${request.at.slice(11, 23)}  ${request.method.padEnd(6)} ${String(request.status)} ${`${request.latencyMs}ms`.padStart(7)}  ${target}  ${request.correlationId}${error}`;
}

/**
 * `logs tail`: the last `last` requests, then every new one as it is logged (polling every `intervalMs` for what is
 * newer than the last id seen), until `until` says stop. Each line goes to `print`.
 */
export async function tailLogs(
  session: Session,
  base: string,
  options: {
    last: number;
    intervalMs: number;
    q?: string | undefined;
    follow: boolean;
    print: (line: string) => void;
    until?: () => boolean;
  },
): Promise<void> {
  const filter = (more: string) => encodeURIComponent([options.q, more].filter(Boolean).join(" AND "));
  const recent = await session.call<{ requests: LoggedRequest[] }>(
    "GET",
    `${base}/request-logs?sortBy=id&sortDir=Desc&limit=${options.last}&q=${filter("")}`,
  );
  const shown = [...recent.requests].reverse();
  for (const request of shown) options.print(logLine(request));
  let lastId = shown.at(-1)?.id ?? 0;
  while (options.follow && !options.until?.()) {
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
    const page = await session.call<{ requests: LoggedRequest[] }>(
      "GET",
      `${base}/request-logs?sortBy=id&sortDir=Asc&limit=100&q=${filter(`id>${lastId}`)}`,
    );
    for (const request of page.requests) {
      options.print(logLine(request));
      lastId = request.id;
    }
  }
}
