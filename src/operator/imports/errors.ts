import { z } from "@hono/zod-openapi";
import { ValidationError } from "../../platform/errors";

/** A rejected row (docs/api.md, "Catalog import"): where it is, which product, which field, and why. */
export const ImportErrorSchema = z
  .object({
    file: z.string(),
    line: z.number().int().openapi({ description: "1-based line of the file where the row starts" }),
    productKey: z.string().nullable().openapi({ description: "The product the row names, when it could be read" }),
    field: z.string().nullable().openapi({ description: "The field (NDJSON path or CSV column); null for the whole row" }),
    code: z.string().openapi({ example: "invalid_gtin" }),
    message: z.string(),
  })
  .openapi("CatalogImportError");

type ImportError = z.infer<typeof ImportErrorSchema>;
interface ErrorRow {
  file: string;
  line: number;
  product_key: string | null;
  field: string | null;
  code: string;
  message: string;
}

const view = (row: ErrorRow): ImportError => ({
  file: row.file,
  line: row.line,
  productKey: row.product_key,
  field: row.field,
  code: row.code,
  message: row.message,
});

const encodeCursor = (row: ErrorRow) => btoa(JSON.stringify([row.file, row.line])).replace(/=+$/, "");

/** Where a page starts; a cursor this API did not make is a 400 naming `cursor`, never a silently empty page. */
function decodeCursor(cursor: string | undefined): [string, number] {
  if (!cursor) return ["", 0];
  try {
    const position = JSON.parse(atob(cursor)) as unknown;
    if (Array.isArray(position) && position.length === 2) {
      const [file, line] = position;
      if (typeof file === "string" && Number.isSafeInteger(line)) return [file, line as number];
    }
  } catch {
    // falls through: not base64, or not JSON
  }
  throw new ValidationError({ cursor: ["Not a cursor of this list: send the nextCursor of the previous page."] });
}

async function errorRows(catalog: D1Database, jobId: string, limit: number, after: [string, number]): Promise<ErrorRow[]> {
  const { results } = await catalog
    .prepare(
      "SELECT file, line, product_key, field, code, message FROM catalog_import_errors " +
        "WHERE job_id = ?1 AND (file, line) > (?2, ?3) ORDER BY file, line LIMIT ?4",
    )
    .bind(jobId, after[0], after[1], limit)
    .all<ErrorRow>();
  return results;
}

export async function importErrorsPage(catalog: D1Database, jobId: string, limit: number, cursor: string | undefined) {
  const rows = await errorRows(catalog, jobId, limit + 1, decodeCursor(cursor));
  const page = rows.slice(0, limit);
  return { items: page.map(view), nextCursor: rows.length > limit ? encodeCursor(page.at(-1)!) : null };
}

/** Every rejected row as NDJSON, read a thousand at a time while the response streams. */
export function streamImportErrors(catalog: D1Database, jobId: string): ReadableStream<Uint8Array> {
  let after: [string, number] = ["", 0];
  const encoder = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      const rows = await errorRows(catalog, jobId, 1000, after);
      if (rows.length === 0) return controller.close();
      controller.enqueue(encoder.encode(rows.map((row) => `${JSON.stringify(view(row))}\n`).join("")));
      const last = rows.at(-1)!;
      after = [last.file, last.line];
    },
  });
}
