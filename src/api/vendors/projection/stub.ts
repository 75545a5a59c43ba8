import { appConfig, type Bindings } from "../../../env";
import type { VendorLines } from "./projection";

type ProjectionEnv = Pick<Bindings, "VENDOR_LINES" | "VENDOR_PROJECTION_SHARDS">;

/** How many objects hold each vendor's projection (VENDOR_PROJECTION_SHARDS; fixed for a deployment). */
export const projectionShardCount = (env: ProjectionEnv) => appConfig(env).VENDOR_PROJECTION_SHARDS;

/** The shard of vendor `vendorId`'s projection that holds tenant `tenantId`'s lines: tenantId mod the shard count. */
export const shardOfTenant = (env: ProjectionEnv, tenantId: number) => Math.abs(tenantId) % projectionShardCount(env);

/** Shard `shard` of vendor `vendorId`'s projection, the object named `vendor:<vendorId>:<shard>`. */
export function vendorProjectionShard(
  env: Pick<Bindings, "VENDOR_LINES">,
  vendorId: number,
  shard: number,
): DurableObjectStub<VendorLines> {
  return env.VENDOR_LINES.get(env.VENDOR_LINES.idFromName(`vendor:${vendorId}:${shard}`));
}

/** The shard of vendor `vendorId`'s projection that holds tenant `tenantId`'s lines (publishing, applying, the sweep). */
export const vendorProjection = (env: ProjectionEnv, vendorId: number, tenantId: number): DurableObjectStub<VendorLines> =>
  vendorProjectionShard(env, vendorId, shardOfTenant(env, tenantId));

/** Every shard of vendor `vendorId`'s projection, in shard order (the vendor's list reads them all). */
export const vendorProjectionShards = (env: ProjectionEnv, vendorId: number): DurableObjectStub<VendorLines>[] =>
  Array.from({ length: projectionShardCount(env) }, (_, shard) => vendorProjectionShard(env, vendorId, shard));
