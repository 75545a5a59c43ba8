/**
 * Upkeep of the catalog's full-text index (products_fts). Every write transaction adds a small FTS5 segment (b-tree)
 * and FTS5's automerge keeps them to a few per level, so after imports a term's doclist is spread over many segments
 * that each MATCH opens and merges: at 1,000,000 products a keyword + manufacturer search spent 8 of its 20 ms of SQL
 * on that (docs/benchmarks.md, "Catalog at scale"). FTS5's 'merge' command merges segments in bounded steps; with a
 * negative page count it merges across levels until one segment is left (the 'optimize' state, which as one
 * statement would hold the catalog database for seconds at 1M products). The Cron Trigger runs a few bounded steps
 * per run, so each statement is short and searches interleave with them.
 */

/** Pages written per 'merge' step: about 120 ms of the database's time at 100,000 products locally. */
export const MERGE_STEP_PAGES = 2000;
/** Steps per housekeeping run: a large import is compacted over a few runs, never in one long hold. */
export const MERGE_STEPS_PER_RUN = 10;

/** Segments of products_fts: 1 when compact (or empty: 0). */
export async function fullTextSegments(catalog: D1Database): Promise<number> {
  const row = await catalog.prepare("SELECT count(DISTINCT segid) AS segments FROM products_fts_idx").first<{ segments: number }>();
  return row?.segments ?? 0;
}

/** Merges products_fts toward one segment in at most `maxSteps` bounded steps; returns the steps run and the segments left. */
export async function compactFullTextIndex(
  catalog: D1Database,
  maxSteps = MERGE_STEPS_PER_RUN,
): Promise<{ steps: number; segments: number }> {
  let segments = await fullTextSegments(catalog);
  let steps = 0;
  while (segments > 1 && steps < maxSteps) {
    await catalog.prepare("INSERT INTO products_fts (products_fts, rank) VALUES ('merge', ?)").bind(-MERGE_STEP_PAGES).run();
    steps += 1;
    segments = await fullTextSegments(catalog);
  }
  return { steps, segments };
}
