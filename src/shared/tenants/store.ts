import { DurableObject } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { type DrizzleSqliteDODatabase, drizzle } from "drizzle-orm/durable-sqlite";
import { migrate } from "drizzle-orm/durable-sqlite/migrator";
import type { Bindings } from "../../env";
import { migrationKey, STATEMENT_BREAKPOINT, type TenantMigrations } from "./migration-files";
import { TENANT_MIGRATIONS } from "./migrations.generated";

/**
 * A tenant store: the SQLite Durable Object that holds one tenant's own data (docs/architecture.md, "Tenant stores").
 * One object per tenant and one per sandbox twin, addressed by name (`tenantStoreName`). Its schema is
 * tenant-migrations/, applied by drizzle's durable-sqlite migrator when the object starts: after a deploy, an
 * object's first request waits for its migration, and no request ever sees an older schema.
 */
export class TenantStore extends DurableObject<Bindings> {
  protected readonly db: DrizzleSqliteDODatabase;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.db = drizzle(ctx.storage);
    void ctx.blockConcurrencyWhile(() => this.migrate());
  }

  /**
   * Applies the migrations this object has not applied yet, all of them in one transaction (drizzle's migrator): a
   * failing migration leaves the object at the version it had, and its requests fail until a fixed deploy.
   */
  async migrate(migrations: TenantMigrations = TENANT_MIGRATIONS): Promise<void> {
    try {
      await migrate(this.db, migrations);
    } catch (error) {
      // drizzle's migrator rolls back and throws "Rollback", which names neither the migration nor the cause.
      throw this.failedMigration(migrations) ?? error;
    }
  }

  /** Replays the pending migrations in a transaction that is always rolled back, to name the one that fails and why. */
  private failedMigration(migrations: TenantMigrations): Error | undefined {
    const applied = this.schemaVersion();
    let failure: Error | undefined;
    try {
      this.ctx.storage.transactionSync(() => {
        for (const entry of migrations.journal.entries.slice(applied)) {
          for (const statement of migrations.migrations[migrationKey(entry.idx)]?.split(STATEMENT_BREAKPOINT) ?? []) {
            try {
              this.ctx.storage.sql.exec(statement);
            } catch (cause) {
              failure = new Error(`tenant store migration ${entry.tag} failed: ${String(cause)}`, { cause });
              throw failure;
            }
          }
        }
        throw new Error("rolled back on purpose");
      });
    } catch {
      // Always: the replay must leave nothing behind.
    }
    return failure;
  }

  /** How many of tenant-migrations/ this object has applied. */
  schemaVersion(): number {
    const [row] = this.db.all<{ applied: number }>(sql`SELECT count(*) AS applied FROM __drizzle_migrations`);
    return row?.applied ?? 0;
  }
}

/** The name of tenant `tenantId`'s store; a sandbox twin (id -T) has a store of its own. */
export const tenantStoreName = (tenantId: number) => `tenant:${tenantId}`;

/** The store of tenant `tenantId` (or of its sandbox twin, -T). */
export function tenantStore(env: Pick<Bindings, "TENANT_STORE">, tenantId: number): DurableObjectStub<TenantStore> {
  return env.TENANT_STORE.get(env.TENANT_STORE.idFromName(tenantStoreName(tenantId)));
}
