import { judgeAll, type RelevanceSummary } from "../../src/dev/seed/judged-queries";
import type { CatalogItem } from "../../src/shared/catalog/catalog";
import { send } from "./client";
import { type BenchContext, catalogSearch } from "./scenarios";

/** precision@10 of the judged query set (src/dev/seed/judged-queries.ts) on the running dataset, by relevance. */
export function measureRelevance(ctx: BenchContext): Promise<RelevanceSummary> {
  return judgeAll(ctx.products, async (query) => {
    const res = await send<{ data: { items: CatalogItem[] } }>(
      ctx.baseUrl,
      catalogSearch(ctx, { query }, { limit: 10, sortBy: "Relevance", sortDirection: "Desc" }),
    );
    return res.data.items.map((item) => item.id);
  });
}
