import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/api/app";
import { fieldRenamed } from "../../src/dev/version-changes";
import { FIRST_VERSION, LATEST_VERSION } from "../../src/platform/versions/calendar";
import { BASE_URL, json, TENANT_A, tokenFor } from "../helpers/api";
import { RECEIVER } from "../helpers/webhooks";

/**
 * Requests walk forward through the version changes (docs/api.md, "Versions"): a body sent at an older version reaches
 * the handler, and its validation, as the latest version's. No released change has a request transform yet, so a change
 * made for this test (`url` once called `endpointUrl`) runs through the real app, its bearer check and its routes.
 */

const OPERATION = "post /customer/api/webhook-endpoints";
type Json = Record<string, unknown>;

const urlRenamed = fieldRenamed([OPERATION], { before: "endpointUrl", after: "url" });

const app = createApp([urlRenamed]);

/** POST of a webhook endpoint to the app of the test change, at `version`, with this body text. */
async function createEndpoint(version: string, body: Json | string): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`${BASE_URL}/customer/api/webhook-endpoints`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${await tokenFor(TENANT_A)}`,
        "Content-Type": "application/json",
        "Medparts-Version": version,
      },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

describe("request transforms", () => {
  it("a body of an older version walks forward to the handler, and its answer walks back", async () => {
    const old = await createEndpoint(FIRST_VERSION, { endpointUrl: `${RECEIVER}/old-name`, eventTypes: ["order.created"] });
    expect(old.status, await old.clone().text()).toBe(201);
    const { data } = await json(old);
    expect(data.endpointUrl).toBe(`${RECEIVER}/old-name`);
    expect(data.url).toBeUndefined();
    // The handler knows only the latest version: there the old name is an unknown field, refused.
    const latest = await createEndpoint(LATEST_VERSION, { endpointUrl: `${RECEIVER}/old-name`, eventTypes: ["order.created"] });
    expect(latest.status).toBe(400);
    const current = await createEndpoint(LATEST_VERSION, { url: `${RECEIVER}/new-name`, eventTypes: ["order.created"] });
    expect(current.status).toBe(201);
    expect((await json(current)).data.url).toBe(`${RECEIVER}/new-name`);
  });

  it("a body that is not JSON is left to the route, which answers it", async () => {
    expect((await createEndpoint(FIRST_VERSION, "{not json")).status).toBe(400);
  });

  it("the test change's request and response transforms invert each other on any document", async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string(), fc.jsonValue()), async (document) => {
        const latest = { ...document, url: "https://x.example" };
        delete (latest as Json).endpointUrl;
        const answered = new Response(JSON.stringify({ success: true, data: latest }), { status: 201 });
        const old = await urlRenamed.response!(answered, { operation: OPERATION, params: {}, correlationId: "c" });
        const { data } = await old.json<{ data: Json }>();
        // As JSON carries it (-0 is 0 there): the answer crossed JSON on its way back.
        expect(urlRenamed.request!(data, { operation: OPERATION, params: {}, correlationId: "c" })).toEqual(
          JSON.parse(JSON.stringify(latest)),
        );
      }),
      { numRuns: 100 },
    );
  });
});
