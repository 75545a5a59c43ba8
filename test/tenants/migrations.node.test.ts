import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generatedModule, migrationKey, STATEMENT_BREAKPOINT, tenantMigrations } from "../../src/shared/tenants/migration-files";

const root = path.join(import.meta.dirname, "../..");
const directory = path.join(root, "tenant-migrations");
const files = readdirSync(directory)
  .filter((name) => name.endsWith(".sql"))
  .map((name) => ({ tag: name.replace(/\.sql$/, ""), sql: readFileSync(path.join(directory, name), "utf8") }));

describe("the tenant store's migrations", () => {
  it("src/shared/tenants/migrations.generated.ts is generated from tenant-migrations/*.sql (npm run tenant-migrations)", () => {
    expect(readFileSync(path.join(root, "src/shared/tenants/migrations.generated.ts"), "utf8")).toBe(generatedModule(files));
  });

  it("are applied in file-name order, each with a later clock than the one before", () => {
    const { journal, migrations } = tenantMigrations([...files].reverse());
    expect(journal.entries.map((entry) => entry.tag)).toEqual(files.map((file) => file.tag).sort());
    expect(journal.entries.map((entry) => entry.when)).toEqual(journal.entries.map((_, idx) => idx + 1));
    expect(Object.keys(migrations)).toEqual(journal.entries.map((entry) => migrationKey(entry.idx)));
  });

  it("are numbered without gaps and split into statements", () => {
    files.forEach((file, idx) => {
      // The Worker carries each statement on one line (compactSql): a comment after code would swallow the rest.
      for (const line of file.sql.split("\n")) if (!line.trim().startsWith("--")) expect(line, file.tag).not.toContain("--");
      expect(file.tag).toMatch(new RegExp(`^${String(idx).padStart(4, "0")}_[a-z0-9_]+$`));
      // drizzle runs each piece between breakpoints as one statement: two statements in one piece would fail.
      for (const piece of file.sql.split(STATEMENT_BREAKPOINT)) {
        const statements = piece
          .replace(/--[^\n]*\n/g, "")
          // A trigger's body is part of its one CREATE TRIGGER statement.
          .replace(/\bBEGIN\b[\s\S]*?\bEND\b/g, "BEGIN END")
          .split(";")
          .filter((part) => part.trim() !== "");
        expect(statements.length, piece).toBeLessThanOrEqual(1);
      }
    });
  });
});
