import { PIPES, readDelimitedWindow } from "./formats/delimited";
import {
  GUDID_FILES,
  type GudidFileKind,
  type GudidIdentifier,
  gmdnTermOf,
  gudidColumns,
  identifierOf,
  recordOfGudidDevice,
} from "./formats/gudid";
import { type FileCursor, FileFault, type WindowRow } from "./formats/window";
import type { Rejection } from "./records";

/**
 * The FDA AccessGUDID delimited release as an import (docs/api.md, "Catalog import"): its files are large and not
 * sorted by device, so the companions (identifiers.txt, gmdnTerms.txt) are read first and staged by PrimaryDI
 * (catalog_import_gudid); each window of device.txt then reads the staged rows of its own devices, one query.
 * productCodes.txt is accepted and not read (FDA product codes are not catalog categories).
 */

const kindOf = (fileName: string): GudidFileKind =>
  (Object.entries(GUDID_FILES).find(([, name]) => name === fileName)?.[0] as GudidFileKind | undefined) ?? "device";

function columnsOf(kind: GudidFileKind, header: string[]) {
  try {
    return gudidColumns(kind, header);
  } catch (err) {
    throw new FileFault("missing_column", (err as Error).message);
  }
}

const json = (value: unknown) => JSON.stringify(value);

export async function gudidCompanionWindow(
  catalog: D1Database,
  jobId: string,
  fileName: string,
  bytes: Uint8Array,
  eof: boolean,
  cursor: FileCursor,
): Promise<{ writes: D1PreparedStatement[]; rejections: Rejection[]; next: FileCursor; done: boolean }> {
  const kind = kindOf(fileName);
  const window = readDelimitedWindow(bytes, eof, cursor, PIPES);
  const columns = columnsOf(kind, window.header);
  const rejections: Rejection[] = [];
  const staged: unknown[] = [];
  for (const { line, fields } of window.rows) {
    try {
      if (kind === "identifiers") {
        const identifier = identifierOf(fields, columns);
        staged.push([identifier.primaryDi, "identifier", line, json(identifier)]);
      } else if (kind === "gmdnTerms") {
        const term = gmdnTermOf(fields, columns);
        if (term.name) staged.push([term.primaryDi, "gmdn", line, term.name]);
      }
    } catch (err) {
      rejections.push({ line, key: null, problem: { field: null, code: "invalid_value", message: (err as Error).message } });
    }
  }
  const writes =
    staged.length === 0
      ? []
      : [
          catalog
            .prepare(
              "INSERT INTO catalog_import_gudid (job_id, primary_di, kind, seq, value) SELECT ?1, json_extract(value, '$[0]'), " +
                "json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]') FROM json_each(?2) WHERE true ON CONFLICT DO NOTHING",
            )
            .bind(jobId, json(staged)),
        ];
  return { writes, rejections, next: window.next, done: window.done };
}

/** The import records of a window of device.txt, each with its staged identifiers and GMDN terms. */
export async function gudidDeviceWindow(
  catalog: D1Database,
  jobId: string,
  bytes: Uint8Array,
  eof: boolean,
  cursor: FileCursor,
): Promise<{ rows: WindowRow[]; next: FileCursor; done: boolean }> {
  const window = readDelimitedWindow(bytes, eof, cursor, PIPES);
  const columns = columnsOf("device", window.header);
  const primaryDis = window.rows.map(({ fields }) => (fields[columns.PrimaryDI!] ?? "").trim());
  const { results } = await catalog
    .prepare(
      "SELECT g.primary_di, g.kind, g.value FROM json_each(?2) j CROSS JOIN catalog_import_gudid g ON g.job_id = ?1 AND g.primary_di = j.value " +
        "ORDER BY g.primary_di, g.kind, g.seq",
    )
    .bind(jobId, json([...new Set(primaryDis)]))
    .all<{ primary_di: string; kind: string; value: string }>();
  const identifiers = new Map<string, GudidIdentifier[]>();
  const gmdnNames = new Map<string, string[]>();
  for (const row of results) {
    if (row.kind === "identifier")
      identifiers.set(row.primary_di, [...(identifiers.get(row.primary_di) ?? []), JSON.parse(row.value) as GudidIdentifier]);
    else gmdnNames.set(row.primary_di, [...(gmdnNames.get(row.primary_di) ?? []), row.value]);
  }
  const rows: WindowRow[] = window.rows.map(({ line, fields }, i) => {
    const primaryDi = primaryDis[i]!;
    try {
      const value = recordOfGudidDevice(fields, columns, identifiers.get(primaryDi) ?? [], gmdnNames.get(primaryDi) ?? []);
      return { line, value, source: JSON.stringify(value) };
    } catch (err) {
      return { line, problem: { field: "PrimaryDI", code: "invalid_value", message: (err as Error).message } };
    }
  });
  return { rows, next: window.next, done: window.done };
}
