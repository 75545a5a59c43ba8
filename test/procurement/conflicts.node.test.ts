import { describe, expect, it } from "vitest";
import { idempotencyConflictOf } from "../../src/operator/procurement/order-request";
import { MISMATCH_MESSAGE, PROCESSING_MESSAGE } from "../../src/platform/idempotency/middleware";

/** The gateway calls the API at the latest version, and reads an idempotency conflict in either form (issue 71). */
describe("the procurement gateway reads an idempotency conflict", () => {
  it("from a problem of type idempotency-conflict, and from the { error } of a version before 2026-12-07", () => {
    for (const message of [PROCESSING_MESSAGE, MISMATCH_MESSAGE]) {
      const problem = { type: "https://api.medparts.example/docs/errors/idempotency-conflict", status: 409, detail: message, errors: [] };
      expect(idempotencyConflictOf(problem)).toBe(message);
      expect(idempotencyConflictOf({ error: message })).toBe(message);
    }
  });

  it("finds none in any other answer", () => {
    const used = { type: "https://api.medparts.example/docs/errors/price-option-used", status: 409, detail: "ordered once", errors: [] };
    for (const body of [used, null, "text", { detail: PROCESSING_MESSAGE }, { error: 42 }])
      expect(idempotencyConflictOf(body)).toBeUndefined();
  });
});
