import { createExecutionContext, env } from "cloudflare:test";
import worker from "./worker";

type FetchHandler = NonNullable<typeof worker.fetch>;

/**
 * A request to the test Worker's fetch handler (test/helpers/worker.ts), called in this isolate: the same app,
 * bindings and background tracking as SELF.fetch, without what SELF adds to every request under the vitest plugin
 * (a module import through its runner object and a loopback subrequest: about 4 ms of CPU against 0.25 ms for the
 * handler of /health/live). What the HTTP hop itself adds, an HTTP client's Content-Length for a body of known length,
 * is added here; a stream body goes without one (chunked), as over the wire. test/platform/dispatch.test.ts checks that
 * both paths answer alike, and the tests that are about the runtime's HTTP handling use SELF.
 */
export async function dispatch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  let request = new Request(input, init);
  if (request.body && !(init?.body instanceof ReadableStream) && !request.headers.has("Content-Length")) {
    const body = await request.arrayBuffer();
    const headers = new Headers(request.headers);
    headers.set("Content-Length", String(body.byteLength));
    request = new Request(request.url, { method: request.method, headers, body, redirect: request.redirect, signal: request.signal });
  }
  return worker.fetch!(request as Parameters<FetchHandler>[0], env, createExecutionContext());
}
