import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { API, BASE_URL, operatorTokenFor, TENANT_A, tokenFor } from "../helpers/api";
import { dispatch } from "../helpers/dispatch";
import { createImport } from "../helpers/imports";
import { TEST_ECHO_PATH } from "../helpers/test-routes";

/**
 * Most tests send their requests with dispatch() (test/helpers/dispatch.ts), the handler called in the test's isolate,
 * instead of SELF.fetch, the runtime's HTTP hop. Both must answer alike: status, headers and body, but for what is
 * new at every request (correlation id, D1 session bookmark, timestamps, issued tokens and ids).
 */
const PER_REQUEST = /^(x-correlation-id|x-session-bookmark|date|ratelimit.*|retry-after|etag|last-modified)$/i;
const volatileFields = /"(correlationId|timestamp|access_token|id|jobId|createdAt|updatedAt|expiresAt)":"[^"]*"/g;

async function answer(res: Response) {
  const headers = [...res.headers].filter(([name]) => !PER_REQUEST.test(name)).sort();
  return { status: res.status, headers, body: (await res.text()).replace(volatileFields, '"$1":"*"') };
}

let token: string;
let operatorToken: string;
beforeAll(async () => {
  token = await tokenFor(TENANT_A);
  operatorToken = await operatorTokenFor();
});

const bytes = (n: number) => new Uint8Array(n).fill(97);

describe("dispatch() answers as SELF.fetch does", () => {
  const cases: [string, () => [string, RequestInit]][] = [
    ["health", () => [`${BASE_URL}/health/live`, {}]],
    ["an unknown path", () => [`${API}/nowhere`, { headers: { Authorization: `Bearer ${token}` } }]],
    [
      "a method the path does not take",
      () => [`${API}/orders/search`, { method: "DELETE", headers: { Authorization: `Bearer ${token}` } }],
    ],
    ["no token", () => [`${API}/users/lookup?userId=1`, {}]],
    ["a lookup", () => [`${API}/users/lookup?userId=1`, { headers: { Authorization: `Bearer ${token}` } }]],
    ["HEAD of a lookup", () => [`${API}/users/lookup?userId=1`, { method: "HEAD", headers: { Authorization: `Bearer ${token}` } }]],
    [
      "a JSON body, its length known",
      () => [
        API + TEST_ECHO_PATH,
        { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: '{"text":"é"}' },
      ],
    ],
    [
      "a body over the limit, refused by its length",
      () => [
        API + TEST_ECHO_PATH,
        { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: bytes(1024 * 1024 + 1) },
      ],
    ],
    [
      "a stream body (no Content-Length)",
      () => [
        `${BASE_URL}/admin/api/catalog/imports/imp_unknown/files/a.ndjson`,
        {
          method: "PUT",
          headers: { Authorization: `Bearer ${operatorToken}`, "Content-Type": "application/octet-stream" },
          body: new Blob([bytes(10)]).stream(),
          duplex: "half",
        } as RequestInit,
      ],
    ],
    [
      "a form body",
      () => [`${BASE_URL}/auth/oauth2/token`, { method: "POST", body: new URLSearchParams({ grant_type: "client_credentials" }) }],
    ],
  ];

  it("an upload of known length (the upload refuses one without Content-Length)", async () => {
    const upload = async (send: typeof dispatch) => {
      const job = await createImport({ format: "ndjson" }, {});
      const res = await send(`${BASE_URL}/admin/api/catalog/imports/${job.id}/files/a.ndjson`, {
        method: "PUT",
        headers: { Authorization: `Bearer ${operatorToken}`, "Content-Type": "application/octet-stream" },
        body: new TextEncoder().encode('{"id":"MP-1"}\n'),
      });
      return answer(res);
    };
    const viaSelf = await upload((input, init) => SELF.fetch(input, init));
    expect(viaSelf.status).toBe(200);
    expect(await upload(dispatch)).toEqual(viaSelf);
  });

  for (const [name, request] of cases) {
    it(name, async () => {
      const viaSelf = await answer(await SELF.fetch(...request()));
      const viaDispatch = await answer(await dispatch(...request()));
      expect(viaDispatch).toEqual(viaSelf);
    });
  }
});
