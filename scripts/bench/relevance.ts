import type { CatalogItem } from "../../src/catalog/catalog";
import { JUDGED_QUERIES, judge, type RelevanceSummary, relevantCounts, summarize } from "../../src/seed/judged-queries";
import { send } from "./client";
import { type BenchContext, catalogSearch } from "./scenarios";

/** precision@10 of the judged query set (src/seed/judged-queries.ts) on the running dataset, by relevance. */
export async function measureRelevance(ctx: BenchContext): Promise<RelevanceSummary> {
  const counts = relevantCounts(ctx.products);
  const results = [];
  for (const [i, judged] of JUDGED_QUERIES.entries()) {
    const res = await send<{ data: { items: CatalogItem[] } }>(
      ctx.baseUrl,
      catalogSearch(ctx, { query: judged.query }, { limit: 10, sortBy: "Relevance", sortDirection: "Desc" }),
    );
    results.push(
      judge(
        judged,
        counts[i]!,
        res.data.items.map((item) => item.id),
      ),
    );
  }
  return summarize(results);
}
