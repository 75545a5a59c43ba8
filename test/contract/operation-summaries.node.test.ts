import { describe, expect, it } from "vitest";
import { generatedDocument } from "../helpers/generated-document";

/**
 * The references' navigation lists operations by their summaries: a short name of what the operation does ("Get an
 * access token"), read at a glance. What it does in detail, its limits and its caveats belong in its description
 * (test/contract/openapi.test.ts holds every operation to one).
 */

const SUMMARY_MAX_LENGTH = 60;

interface Operation {
  summary?: string;
}

async function operations(): Promise<{ at: string; operation: Operation }[]> {
  const document = (await generatedDocument()) as Record<"paths" | "webhooks", Record<string, Record<string, unknown>>>;
  return (["paths", "webhooks"] as const).flatMap((group) =>
    Object.entries(document[group]).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, value]) => typeof value === "object" && value !== null && "responses" in value)
        .map(([method, operation]) => ({ at: `${group} ${method} ${path}`, operation: operation as Operation })),
    ),
  );
}

/** What makes a summary a sentence rather than a name: longer than the limit, two clauses, a closing full stop. */
const summaryFaults = (summary: string | undefined): string[] => [
  ...(summary ? [] : ["no summary"]),
  ...((summary?.length ?? 0) > SUMMARY_MAX_LENGTH ? [`${summary!.length} characters`] : []),
  ...(/[:;]/.test(summary ?? "") ? ["two clauses (: or ;)"] : []),
  ...(summary?.endsWith(".") ? ["a full stop"] : []),
];

describe("operation summaries", () => {
  it(`every operation and webhook has a summary of at most ${SUMMARY_MAX_LENGTH} characters, one clause`, async () => {
    const found = await operations();
    expect(found.length).toBeGreaterThan(100);
    const faults = found.flatMap(({ at, operation }) =>
      summaryFaults(operation.summary).map((fault) => `${at}: ${fault} (${operation.summary})`),
    );
    expect(faults).toEqual([]);
  });

  it("the check finds a sentence for a summary", () => {
    expect(summaryFaults("Get an access token")).toEqual([]);
    expect(summaryFaults("OAuth 2.0 client credentials grant: issues an RS256 JWT access token valid 3600 s")).toEqual([
      "81 characters",
      "two clauses (: or ;)",
    ]);
    expect(summaryFaults("Register a webhook endpoint; its secret is shown once.")).toEqual(["two clauses (: or ;)", "a full stop"]);
    expect(summaryFaults(undefined)).toEqual(["no summary"]);
  });
});
