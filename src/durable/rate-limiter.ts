import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../env";

/** Token bucket per API client. Behaviour arrives with the platform-protections issue. */
export class RateLimiter extends DurableObject<Bindings> {}
