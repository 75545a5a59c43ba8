import { env } from "cloudflare:test";
import type { SQLiteUpdate } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { type Invoicing, rematchStatements } from "../../src/api/invoices/invoicing";
import { settingsOf } from "../../src/api/purchasing/settings";
import { database } from "../../src/db/client";
import { tenantStoreDatabase } from "../../src/shared/tenants/store-database";

/** Where invoices live: the tenant's store. */
const store = () => tenantStoreDatabase(env, 1);

/**
 * A rematch writes the changed invoice lines' matches by primary key: its cost follows the lines it changes, not the
 * size of invoice_lines. Testing every row of the table against the changed lines made a 50-line invoice cost ~60 ms
 * of CPU with a few thousand lines in the table, and more with every invoice sent since.
 */
async function plan(statement: { toSQL(): { sql: string; params: unknown[] } }): Promise<string[]> {
  const { sql, params } = statement.toSQL();
  const { results } = await store()
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return results.map((row) => row.detail);
}

/** An order whose one invoice of two lines is matched again: both lines' explanations change. */
function invoicingOfTwoLines(): Invoicing {
  const line = (lineNumber: number) => ({
    id: 7,
    kind: "invoice",
    number: "INV-1",
    status: "exception",
    creditedInvoiceId: null,
    origin: null,
    totalCents: 2000,
    freightCents: 0,
    lineNumber,
    orderLineId: 100 + lineNumber,
    creditedLineNumber: null,
    quantity: 1,
    unitPriceCents: 1000,
    amountCents: 1000,
    taxCents: 0,
    matchStatus: "quantity_variance",
    matchExplanation: "before",
  });
  return {
    vendorId: 4,
    order: { id: 1, tenantId: 1, orderNumber: "ORD-1", version: 1 },
    states: [],
    vendorLines: [],
    documents: [
      {
        id: 7,
        kind: "invoice",
        number: "INV-1",
        status: "exception",
        creditedInvoiceId: null,
        totalCents: 2000,
        freightCents: 0,
        lines: [line(1), line(2)],
      },
    ],
    settings: settingsOf(undefined),
  };
}

describe("invoice line matches: written by primary key", () => {
  it("a rematch seeks each changed line by (invoice, line number), never scans invoice_lines", async () => {
    const matches = new Map([
      [7, [1, 2].map((lineNumber) => ({ lineNumber, status: "quantity_variance" as const, explanation: `after ${lineNumber}` }))],
    ]);
    const { statements } = rematchStatements(database(store()), invoicingOfTwoLines(), matches, "2026-12-07T00:00:00.000Z");
    const lineWrites = (statements as SQLiteUpdate[]).filter((statement) => /^update "invoice_lines"/.test(statement.toSQL().sql));
    expect(lineWrites).toHaveLength(1);
    const steps = await plan(lineWrites[0]!);
    expect(
      steps.filter((step) => /^SCAN invoice_lines\b/.test(step)),
      steps.join("\n"),
    ).toEqual([]);
    expect(steps.join("\n")).toMatch(
      /SEARCH invoice_lines USING (COVERING )?INDEX sqlite_autoindex_invoice_lines_1 \(invoice_id=\? AND line_number=\?\)/,
    );
  });
});
