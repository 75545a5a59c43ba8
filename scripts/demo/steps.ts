/**
 * What the demos that play several parties share (scripts/demo/edi.ts, scripts/demo/recall.ts): numbered steps, the
 * values each shows, one HTTP call that stops the demo on anything but a 2xx, and a client's token.
 */

let BASE_URL = "";
export const useBaseUrl = (url: string) => {
  BASE_URL = url;
};
export const demoBaseUrl = () => BASE_URL;
const MAILBOX_TYPE = "application/edi-x12";

export class StepFailed extends Error {}
let stepNumber = 0;
export const currentStep = () => stepNumber;
export const step = (title: string) => console.log(`\n${++stepNumber}. ${title}`);
export const show = (label: string, value: unknown) =>
  console.log(`   ${label.padEnd(18)} ${typeof value === "string" ? value : JSON.stringify(value)}`);

export interface Envelope<T> {
  data: T;
}

/** One HTTP call: anything but a 2xx stops the demo with the method, path, status and body. */
export async function http(
  method: string,
  path: string,
  init: { token?: string; json?: unknown; x12?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { Accept: "application/json", ...init.headers };
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  let body: string | undefined;
  if (init.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(init.json);
  } else if (init.x12 !== undefined) {
    headers["Content-Type"] = MAILBOX_TYPE;
    body = init.x12;
  }
  let res: Response;
  try {
    res = await fetch(`${BASE_URL}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  } catch (error) {
    throw new StepFailed(`${method} ${path}: no answer (${(error as Error).message}). Is \`npm start\` running at ${BASE_URL}?`);
  }
  if (!res.ok) {
    const hint = res.status === 404 && path.includes("/edi/") ? " (is the EDI mailbox in this build?)" : "";
    throw new StepFailed(`${method} ${path} failed: HTTP ${res.status}${hint}\n   ${(await res.text()).slice(0, 1000)}`);
  }
  return res;
}
export const call = async <T>(method: string, path: string, init: Parameters<typeof http>[2] = {}) =>
  ((await (await http(method, path, init)).json()) as Envelope<T>).data;

export async function token(credentials: { clientId: string; clientSecret: string }): Promise<string> {
  const res = await fetch(`${BASE_URL}/auth/oauth2/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
    }),
  }).catch((error: Error) => {
    throw new StepFailed(`token: no answer (${error.message}). Is \`npm start\` running at ${BASE_URL}?`);
  });
  if (!res.ok) throw new StepFailed(`token of ${credentials.clientId}: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
