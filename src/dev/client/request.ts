/** What an integrator call carries: a bearer token and either a JSON or a form body. */
export interface CallOptions {
  token?: string;
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

/** The fetch init for a call: Accept JSON, Authorization when a token is given, the body with its Content-Type. */
export function requestInit(method: string, options: CallOptions = {}): { method: string; headers: Record<string, string>; body?: string } {
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    return { method, headers, body: JSON.stringify(options.json) };
  }
  if (options.form) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    return { method, headers, body: new URLSearchParams(options.form).toString() };
  }
  return { method, headers };
}
