import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/api/index";
import { compactFullTextIndex, fullTextSegments, MERGE_STEPS_PER_RUN } from "../../src/shared/catalog/full-text-index";
import { search } from "../helpers/catalog";
import { withMethods } from "../helpers/faults";

/**
 * The housekeeping merges the full-text index's segments in bounded steps (src/shared/catalog/full-text-index.ts): searches
 * answer the same before and after, and one run never takes more than its steps.
 */

/** Rewrites products one statement (one transaction) at a time: each adds a full-text segment, as imports do. */
async function rewriteProducts(count: number): Promise<void> {
  for (let rowid = 1; rowid <= count; rowid++) {
    await env.CATALOG.prepare("UPDATE products SET title = title || '' WHERE rowid = ?").bind(rowid).run();
  }
}

const QUERIES = ["battery pack", "sensor", "ge", "valve"];

async function answers() {
  const out: Record<string, { ids: string[]; total: number }> = {};
  for (const query of QUERIES) {
    const result = await search({ filters: { query }, pagination: { limit: 100 } });
    out[query] = { ids: result.items.map((item) => item.id), total: result.pagination.total };
  }
  return out;
}

async function runHousekeeping(bindings: typeof env = env): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "*/15 * * * *" }), bindings, ctx);
  await waitOnExecutionContext(ctx);
}

/** CATALOG whose statements on the full-text index's own tables fail, as a database that refuses them would. */
function catalogRefusingIndexUpkeep(): D1Database {
  return withMethods(env.CATALOG, {
    prepare: (prepare) => (sql: string) => {
      if (sql.includes("products_fts_idx") || sql.includes("'merge'")) throw new Error("D1_ERROR: not authorized");
      return prepare(sql);
    },
  });
}

describe("full-text index upkeep", () => {
  it("the scheduled housekeeping merges the segments into one, and searches answer exactly as before", async () => {
    await rewriteProducts(12);
    expect(await fullTextSegments(env.CATALOG)).toBeGreaterThan(1);
    const before = await answers();
    expect(before["battery pack"]!.ids.length).toBeGreaterThan(0);

    await runHousekeeping();
    expect(await fullTextSegments(env.CATALOG)).toBe(1);
    expect(await answers()).toEqual(before);
  });

  it("is best effort: when the index's upkeep fails, the rest of the housekeeping has run and nothing throws", async () => {
    await rewriteProducts(5);
    const segments = await fullTextSegments(env.CATALOG);
    await env.CATALOG.prepare("DELETE FROM catalog_positions_built").run();
    await runHousekeeping({ ...env, CATALOG: catalogRefusingIndexUpkeep() });
    const rebuilt = await env.CATALOG.prepare("SELECT COUNT(*) AS n FROM catalog_positions_built").first<{ n: number }>();
    expect(rebuilt!.n).toBeGreaterThan(0);
    expect(await fullTextSegments(env.CATALOG)).toBe(segments);
  });

  it("a run takes at most its steps, and nothing when the index is already one segment", async () => {
    await rewriteProducts(30);
    const segments = await fullTextSegments(env.CATALOG);
    expect(segments).toBeGreaterThan(1);
    const one = await compactFullTextIndex(env.CATALOG, 1);
    expect(one.steps).toBe(1);
    expect(one.segments).toBeLessThan(segments);

    const rest = await compactFullTextIndex(env.CATALOG);
    expect(rest.steps).toBeLessThanOrEqual(MERGE_STEPS_PER_RUN);
    expect(rest.segments).toBe(1);
    expect(await compactFullTextIndex(env.CATALOG)).toEqual({ steps: 0, segments: 1 });
  });
});
