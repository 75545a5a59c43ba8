import { generateProduct, type ProductRow } from "./catalog";

/**
 * The judged query set for catalog search relevance (docs/benchmarks.md, precision@10). Each query says, as a
 * buyer would judge it, which products of the seeded catalog are right answers; the judgement reads the
 * generated product (src/dev/seed/catalog.ts), never the search engine. Part-number queries have one right
 * answer, which must come first.
 */
export interface JudgedQuery {
  group: "part number" | "manufacturer + device" | "category" | "keywords";
  query: string;
  relevant(product: ProductRow): boolean;
  /** Part-number queries: the index of the one product that must be the first result. */
  exactIndex?: number;
}

const typeOf = (product: ProductRow) => product.description.slice(0, product.description.indexOf(" for "));
const manufacturerOf = (product: ProductRow) => product.title.slice(0, product.title.length - typeOf(product).length - 1);

const partNumber = (query: string, index: number): JudgedQuery => {
  const expected = generateProduct(index).partNumber;
  return { group: "part number", query, exactIndex: index, relevant: (product) => product.partNumber === expected };
};

const device = (query: string, manufacturer: string, type: string): JudgedQuery => ({
  group: "manufacturer + device",
  query,
  relevant: (product) => manufacturerOf(product) === manufacturer && typeOf(product).includes(type),
});

const category = (query: string, name: string): JudgedQuery => ({
  group: "category",
  query,
  relevant: (product) => product.categories.includes(name),
});

const keywords = (query: string, type: string, model?: string): JudgedQuery => ({
  group: "keywords",
  query,
  relevant: (product) => typeOf(product).includes(type) && (model === undefined || product.description.includes(` ${model} series`)),
});

/** Indices below 600 exist in every dataset (the test catalog has 600 products). */
export const JUDGED_QUERIES: JudgedQuery[] = [
  partNumber("GE-100-000", 0),
  partNumber("ge100000", 0),
  partNumber("GE 100 000", 0),
  partNumber("100-000", 0),
  partNumber("BB-484-3481 B", 599),
  partNumber("bb4843481b", 599),
  partNumber("BB4843481-B", 599),
  partNumber("sm 273 7027 d", 333),
  partNumber("SM2737027D", 333),
  partNumber("MS-207-9750", 250),
  partNumber("ms2079750", 250),
  partNumber("GET-234-623", 17),
  partNumber("get234623", 17),
  partNumber("207-9750", 250),
  partNumber("KS-432-598", 42),
  device("philips spo2 sensor", "Philips Healthcare", "SpO2 Sensor"),
  device("ge battery pack", "GE Healthcare", "Battery Pack"),
  device("medtronic infusion pump door", "Medtronic", "Infusion Pump Door"),
  device("draeger flow sensor", "Draeger", "Flow Sensor"),
  device("zoll defibrillator paddle", "ZOLL Medical", "Defibrillator Paddle"),
  device("olympus light guide cable", "Olympus", "Light Guide Cable"),
  device("masimo spo2 extension cable", "Masimo", "SpO2 Extension Cable"),
  device("karl storz camera head", "Karl Storz", "Camera Head"),
  device("steris door gasket", "STERIS", "Door Gasket"),
  device("baxter keypad membrane", "Baxter", "Keypad Membrane"),
  category("endoscopy", "Endoscopy"),
  category("sterilization", "Sterilization"),
  category("respiratory", "Respiratory"),
  category("cardiology", "Cardiology"),
  keywords("battery pack", "Battery Pack"),
  keywords("ecg leadwire", "ECG Leadwire"),
  keywords("x-ray tube", "X-Ray Tube"),
  keywords("exhalation valve", "Exhalation Valve"),
  keywords("o2 cell sensor", "O2 Cell Sensor"),
  keywords("touchscreen display", "Touchscreen Display"),
  keywords("ultrasound transducer", "Ultrasound Transducer"),
  keywords("alaris infusion pump door", "Infusion Pump Door", "Alaris"),
  keywords("intellivue spo2", "SpO2", "IntelliVue MX"),
];

/** How many products of a catalog of `products` each judged query has as right answers (one pass over the catalog). */
function relevantCounts(products: number): number[] {
  const counts = JUDGED_QUERIES.map(() => 0);
  for (let index = 0; index < products; index++) {
    const product = generateProduct(index);
    JUDGED_QUERIES.forEach((judged, i) => {
      if (judged.relevant(product)) counts[i]!++;
    });
  }
  return counts;
}

/** Catalog ids are MP-<index + 1>, zero-padded (src/dev/seed/catalog.ts productId). */
const indexOfProductId = (id: string) => Number(id.slice(3)) - 1;

export interface JudgedResult {
  query: string;
  group: JudgedQuery["group"];
  /** Right answers among the first 10, over min(10, right answers in the catalog); null when the catalog has none. */
  precisionAt10: number | null;
  /** Part-number queries: whether the exact part came first. */
  exactFirst?: boolean;
}

/** Judges one query's first results (catalog ids, in order). */
function judge(judged: JudgedQuery, relevantInCatalog: number, topIds: readonly string[]): JudgedResult {
  const top10 = topIds.slice(0, 10).map((id) => generateProduct(indexOfProductId(id)));
  const hits = top10.filter((product) => judged.relevant(product)).length;
  const possible = Math.min(10, relevantInCatalog);
  return {
    query: judged.query,
    group: judged.group,
    precisionAt10: possible === 0 ? null : hits / possible,
    ...(judged.exactIndex !== undefined && { exactFirst: topIds[0] === generateProduct(judged.exactIndex).id }),
  };
}

export interface RelevanceSummary {
  queries: number;
  /** Queries with right answers in this catalog: the ones precision is averaged over. */
  measured: number;
  meanPrecisionAt10: number;
  byGroup: Record<string, number>;
  exactFirst: { of: number; first: number };
  results: JudgedResult[];
}

function summarize(results: JudgedResult[]): RelevanceSummary {
  const precisions = (of: JudgedResult[]) => of.map((r) => r.precisionAt10).filter((p): p is number => p !== null);
  const mean = (values: number[]) => Math.round((values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)) * 1000) / 1000;
  const groups = [...new Set(results.map((r) => r.group))];
  const partNumbers = results.filter((r) => r.exactFirst !== undefined);
  return {
    queries: results.length,
    measured: precisions(results).length,
    meanPrecisionAt10: mean(precisions(results)),
    byGroup: Object.fromEntries(groups.map((g) => [g, mean(precisions(results.filter((r) => r.group === g)))])),
    exactFirst: { of: partNumbers.length, first: partNumbers.filter((r) => r.exactFirst).length },
    results,
  };
}

/** Runs the whole judged set: `topIds` answers a query with the catalog ids of its first results by relevance. */
export async function judgeAll(products: number, topIds: (query: string) => Promise<readonly string[]>): Promise<RelevanceSummary> {
  const counts = relevantCounts(products);
  const results: JudgedResult[] = [];
  for (const [i, judged] of JUDGED_QUERIES.entries()) results.push(judge(judged, counts[i]!, await topIds(judged.query)));
  return summarize(results);
}
