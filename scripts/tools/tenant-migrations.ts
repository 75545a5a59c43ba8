import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { generatedModule } from "../../src/shared/tenants/migration-files";
import { cliArgs } from "../cli";

cliArgs("tenant-migrations", "Writes the tenant stores' migrations module from tenant-migrations/*.sql.", {});

// Writes src/shared/tenants/migrations.generated.ts from tenant-migrations/*.sql (the tenant store's migrations, which a
// Worker cannot read as files). test/tenants/migrations.node.test.ts fails while the two differ.
const root = path.join(import.meta.dirname, "../..");
const directory = path.join(root, "tenant-migrations");
const files = readdirSync(directory)
  .filter((name) => name.endsWith(".sql"))
  .map((name) => ({ tag: name.replace(/\.sql$/, ""), sql: readFileSync(path.join(directory, name), "utf8") }));
const target = path.join(root, "src/shared/tenants/migrations.generated.ts");
writeFileSync(target, generatedModule(files));
console.log(`${path.relative(root, target)}: ${files.length} migration(s)`);
