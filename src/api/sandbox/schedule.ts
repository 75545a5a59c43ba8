import type { MiddlewareHandler } from "hono";
import type { AppEnv, Bindings } from "../../env";
import { appConfig } from "../../env";
import { inBackground } from "../../platform/background";
import { ProblemError } from "../../platform/errors";
import { logEvent } from "../../platform/logging";
import { tenantStoreDatabase } from "../../shared/tenants/store-database";
import { handSandboxOrderToEdi } from "./edi";
import { runScenario, type Scenario } from "./simulator";

/**
 * The simulated vendor's default schedule (docs/api.md, "Sandbox"): a new test-mode order is acknowledged, shipped and
 * delivered, one step every SANDBOX_STEP_SECONDS (0: no schedule), through the SANDBOX queue's delayed messages. A
 * scenario run on demand takes the order off the schedule (sandbox_manual_orders), so an integrator's backorder or
 * partial shipment is never overtaken by it.
 */

export const SANDBOX_QUEUE = "medparts-sandbox";
const STEPS: readonly Scenario[] = ["acknowledge", "ship", "deliver"];

export interface SandboxMessage {
  orderNumber: string;
  dataTenantId: number;
  step: number;
}

type ScheduleEnv = Pick<Bindings, "SANDBOX"> & Parameters<typeof appConfig>[0];

function enqueue(env: ScheduleEnv, message: SandboxMessage): Promise<void> {
  const delaySeconds = appConfig(env).SANDBOX_STEP_SECONDS;
  return delaySeconds > 0 ? env.SANDBOX.send(message, { delaySeconds }).then(() => undefined) : Promise.resolve();
}

/** After POST /orders answered 201 to a test-mode client (not a replay): the order's first step is scheduled. */
export const scheduleSandboxOrders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const principal = c.get("principal");
  if (c.req.method !== "POST" || principal?.mode !== "test" || c.res.status !== 201 || c.res.headers.get("X-Idempotency-Cached")) return;
  const { data } = (await c.res.clone().json()) as { data: { orderNumber: string } };
  inBackground(
    c,
    enqueue(c.env, {
      orderNumber: data.orderNumber,
      dataTenantId: principal.dataTenantId,
      step: 0,
    }).catch((error: unknown) =>
      logEvent("warn", { event: "sandbox.schedule_failed", orderNumber: data.orderNumber, error: String(error).slice(0, 200) }),
    ),
  );
};

/** The SANDBOX queue's consumer: each message one step of one order, then the next step scheduled. */
export async function consumeSandboxBatch(batch: MessageBatch<SandboxMessage>, env: Bindings): Promise<void> {
  for (const message of batch.messages) {
    const { orderNumber, dataTenantId, step } = message.body;
    // The order is in the sandbox twin's store, whose alarm dispatches the step's events (docs/tenant-stores.md).
    const db = tenantStoreDatabase(env, dataTenantId);
    if (step >= STEPS.length) {
      message.ack();
      continue;
    }
    try {
      // The order as placed first (its 850 to a vendor's X12 test partner), then as each step leaves it.
      if (step === 0) await handSandboxOrderToEdi(env, db, dataTenantId, orderNumber);
      if (await runScenario(db, dataTenantId, orderNumber, STEPS[step]!, { unlessManual: true })) {
        await handSandboxOrderToEdi(env, db, dataTenantId, orderNumber);
      }
    } catch (error) {
      if (!(error instanceof ProblemError)) {
        message.retry(); // storage trouble: the step again later (a step already made is then nothing to do)
        continue;
      }
      // Nothing to do at this step (made already, before a redelivery; or the buyer cancelled meanwhile): the next one.
      logEvent("info", { event: "sandbox.step_skipped", orderNumber, step: STEPS[step], message: error.message.slice(0, 200) });
    }
    // The next step, even after a skipped one: a redelivered message never ends the schedule early. An order driven by
    // hand, or gone, makes every later step nothing.
    await enqueue(env, { ...message.body, step: step + 1 });
    message.ack();
  }
}
