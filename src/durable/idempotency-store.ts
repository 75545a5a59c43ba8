import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../env";

/** One instance per (tenant, Idempotency-Key). Behaviour arrives with the orders issue. */
export class IdempotencyStore extends DurableObject<Bindings> {}
