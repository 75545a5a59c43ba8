import { percentile } from "../../src/platform/percentile";
import type { LoadRequest } from "./load";
import { type BenchContext, CATALOG_SEARCH_SCENARIOS } from "./scenarios";

/**
 * Catalog searches one after another (one connection, every answer computed: `no-store`, at most ten a second), keyword, part number and
 * keyword + facet in turn, each timed and labelled with what the server was doing then: how searches fare while an
 * import writes the catalog database (docs/benchmarks.md, "Catalog import").
 */

export const SEARCH_KINDS = ["search-keyword", "search-part-number", "search-facet"] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export interface SearchSample {
  kind: SearchKind;
  ms: number;
  /** What the server was doing when the search was sent. */
  during: string;
}

/** The three searches of `ctx`'s catalog (one product read through the API names the part number and the manufacturer). */
export async function searchRequests(ctx: BenchContext): Promise<{ kind: SearchKind; request: LoadRequest }[]> {
  return Promise.all(
    SEARCH_KINDS.map(async (kind) => {
      const scenario = CATALOG_SEARCH_SCENARIOS.find((s) => s.name === kind)!;
      return { kind, request: (await scenario.prepare(ctx)).request };
    }),
  );
}

/**
 * One search every SAMPLE_INTERVAL_MS at most: a steady trickle of buyers, which measures what a search waits for
 * without taking the (single-threaded) local runtime away from the import it measures.
 */
export const SAMPLE_INTERVAL_MS = 100;

/** Sends the searches in turn until `stop` resolves; each sample says what `during()` answered when it was sent. */
export async function sampleSearches(
  baseUrl: string,
  requests: { kind: SearchKind; request: LoadRequest }[],
  stop: Promise<unknown>,
  during: () => string,
): Promise<SearchSample[]> {
  let stopped = false;
  void stop.finally(() => {
    stopped = true;
  });
  const samples: SearchSample[] = [];
  for (let i = 0; !stopped; i++) {
    const { kind, request } = requests[i % requests.length]!;
    const label = during();
    const started = performance.now();
    const res = await fetch(`${baseUrl}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${kind} answered ${res.status} during ${label}`);
    const ms = performance.now() - started;
    samples.push({ kind, ms, during: label });
    if (ms < SAMPLE_INTERVAL_MS) await new Promise((resolve) => setTimeout(resolve, SAMPLE_INTERVAL_MS - ms));
  }
  return samples;
}

/** Samples for `seconds` with nothing else going on. */
export const sampleIdle = (baseUrl: string, requests: { kind: SearchKind; request: LoadRequest }[], seconds: number) =>
  sampleSearches(baseUrl, requests, new Promise((resolve) => setTimeout(resolve, seconds * 1000)), () => "idle");

export interface SearchFigures {
  count: number;
  p50: number;
  p99: number;
  max: number;
  /** Answers slower than 200 ms. */
  over200: number;
}

export function figures(samples: SearchSample[]): SearchFigures {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    count: sorted.length,
    p50: round(percentile(sorted, 0.5)),
    p99: round(percentile(sorted, 0.99)),
    max: round(sorted.at(-1) ?? 0),
    over200: sorted.filter((ms) => ms > 200).length,
  };
}

export const formatFigures = (f: SearchFigures) =>
  f.count === 0 ? "-" : `${f.p50} / ${f.p99} / ${f.max} (${f.count}${f.over200 ? `, ${f.over200} over 200 ms` : ""})`;
