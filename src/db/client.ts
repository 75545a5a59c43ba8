import { drizzle } from "drizzle-orm/d1";

export type Database = ReturnType<typeof drizzle>;

/**
 * One drizzle instance per D1 binding or session (a request makes several calls with the same one). No relational
 * `schema` is passed: drizzle would rebuild its relational config from every table on each instance, and no code
 * uses `db.query`.
 */
const instances = new WeakMap<D1Database, Database>();

export function database(d1: D1Database): Database {
  let db = instances.get(d1);
  if (!db) {
    db = drizzle(d1);
    instances.set(d1, db);
  }
  return db;
}
