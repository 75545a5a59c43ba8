import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deleteAnswers204 } from "../../src/versions/changes/2026-11-25-delete-answers-204";

const exchange = (id: string, correlationId: string) => ({
  operation: "delete /customer/api/webhook-endpoints/{id}",
  params: { id },
  correlationId,
});

describe("2026-11-25 DELETE answers 204: its transforms", () => {
  it("leave every answer but a 204 as it is: status, headers and body", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 200, max: 599 }).filter((s) => ![204, 205, 304].includes(s)), // 205 and 304 have no body either
        fc.jsonValue(),
        fc.string(),
        async (status, body, id) => {
          const text = JSON.stringify(body) ?? "null";
          const original = new Response(text, { status, headers: { "Content-Type": "application/problem+json", "X-Probe": "1" } });
          const rendered = await deleteAnswers204.response!(original, exchange(id, "c"));
          expect(rendered.status).toBe(status);
          expect(rendered.headers.get("X-Probe")).toBe("1");
          expect(await rendered.text()).toBe(text);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("turn a 204 into the old 200, which gives the 204 back: the id and correlation id survive, nothing else was there", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.uuid(), async (id, correlationId) => {
        const original = new Response(null, { status: 204, headers: { "X-Correlation-Id": correlationId } });
        const old = await deleteAnswers204.response!(original, exchange(id, correlationId));
        expect(old.status).toBe(200);
        expect(old.headers.get("Content-Type")).toBe("application/json");
        expect(old.headers.get("X-Correlation-Id")).toBe(correlationId);
        const body = await old.json<{ success: boolean; data: { id: string; deleted: boolean }; correlationId: string }>();
        expect(body).toMatchObject({ success: true, data: { id, deleted: true }, correlationId });
        // Forward again (what the latest version answers for that body): a 204 without a body, the same id deleted.
        const forward = new Response(null, { status: body.data.deleted ? 204 : 500, headers: { "X-Correlation-Id": body.correlationId } });
        expect(forward.status).toBe(original.status);
        expect(forward.headers.get("X-Correlation-Id")).toBe(original.headers.get("X-Correlation-Id"));
        expect(body.data.id).toBe(id);
      }),
      { numRuns: 100 },
    );
  });
});

describe("2026-11-29 problem types are their pages: the problem transform", () => {
  it("gives a client pinned before the former type, with the body's own length, and leaves other answers alone", async () => {
    const { renderAt } = await import("../../src/platform/versions/middleware");
    const { VERSION_CHANGES } = await import("../../src/versions");
    const body = JSON.stringify({ type: "https://api.example.com/docs/errors/not-found", title: "Not Found", status: 404 });
    const answer = (text: string, type: string) =>
      new Response(text, { status: 404, headers: { "Content-Type": type, "Content-Length": String(text.length), "X-Probe": "1" } });
    const exchange = { operation: "get /customer/api/nowhere", params: {}, correlationId: "c" };
    const old = await renderAt(VERSION_CHANGES, "2026-11-25", answer(body, "application/problem+json"), exchange);
    const text = await old.text();
    expect(JSON.parse(text)).toEqual({ type: "https://medparts.example/problems/not-found", title: "Not Found", status: 404 });
    expect(old.headers.get("Content-Length") ?? String(text.length)).toBe(String(text.length));
    expect(old.headers.get("X-Probe")).toBe("1");
    expect(old.status).toBe(404);
    // At the latest version, and for an answer that is not a problem, nothing changes.
    expect(await (await renderAt(VERSION_CHANGES, "2026-11-29", answer(body, "application/problem+json"), exchange)).text()).toBe(body);
    expect(await (await renderAt(VERSION_CHANGES, "2026-11-25", answer(body, "application/json"), exchange)).text()).toBe(body);
  });
});
