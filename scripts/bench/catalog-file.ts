import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { generateDeviceIdentifiers, generateProduct, MANUFACTURERS } from "../../src/dev/seed/catalog";
import type { ImportRecordInput } from "../../src/operator/imports/records";

/**
 * The demo catalog (src/dev/seed/catalog.ts) as an import file: one NDJSON record per product, in rank order, with its
 * device identifiers. `variant` changes every `variant`-th title, for an import that updates some products.
 */
export function importRecordOf(index: number, variant = 0): ImportRecordInput {
  const product = generateProduct(index);
  const manufacturer = MANUFACTURERS.find((m) => m.id === product.manufacturerId)!;
  return {
    id: product.id,
    partNumber: product.partNumber,
    displayPartNumber: product.displayPartNumber,
    title: variant > 0 && index % variant === 0 ? `${product.title} (revised)` : product.title,
    description: product.description,
    manufacturer: manufacturer.name,
    categories: product.categories,
    deviceIdentifiers: generateDeviceIdentifiers(index).map((di) => ({
      agency: di.agency,
      deviceId: di.deviceId,
      ...(di.containsDeviceId ? { containsDeviceId: di.containsDeviceId, quantity: di.quantity! } : {}),
    })),
  };
}

/** Writes `count` products as NDJSON to `file`, streamed (a million products is about 400 MB). */
export async function writeCatalogFile(file: string, count: number, variant = 0): Promise<void> {
  const out = createWriteStream(file);
  const batch = 2000;
  for (let start = 0; start < count; start += batch) {
    let text = "";
    for (let index = start; index < Math.min(count, start + batch); index++) text += `${JSON.stringify(importRecordOf(index, variant))}\n`;
    if (!out.write(text)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, count, variant] = process.argv.slice(2);
  await writeCatalogFile(file!, Number(count), Number(variant ?? 0));
}
