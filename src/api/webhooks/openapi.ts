import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { documentedEvent } from "../events/samples";
import { EVENT_SCHEMAS, eventSchemaName, eventWhen } from "../events/schemas";
import { DELIVERED_EVENT_TYPES } from "../events/types";
import { DELIVERY_TIMEOUT_MS, EVENT_ID_HEADER, EVENT_TYPE_HEADER } from "./delivery";
import { SIGNATURE_HEADER } from "./signing";

/**
 * The document's `webhooks`, one per event type: what a receiver gets (docs/api.md, "Webhooks"). Registered on the
 * top-level app, whose registry names them as given (a mounted router's registry would prefix them with its path).
 */
export function eventWebhooks(app: OpenAPIHono<AppEnv>): void {
  for (const type of DELIVERED_EVENT_TYPES) {
    app.openAPIRegistry.registerWebhook({
      method: "post",
      path: type,
      operationId: `receive${eventSchemaName(type)}`,
      tags: ["Webhooks"],
      summary: type,
      description:
        `${eventWhen(type)}. ` +
        "POSTed to every enabled endpoint subscribed to this type (or `*`), signed: verify `Medparts-Signature` over the raw body " +
        "before parsing it (docs/api.md, Verifying a delivery). At least once: de-duplicate on the event id.",
      security: [],
      request: {
        headers: z.object({
          [EVENT_ID_HEADER]: z.string().openapi({ description: "The event id, as in the body" }),
          [EVENT_TYPE_HEADER]: z.literal(type),
          [SIGNATURE_HEADER]: z
            .string()
            .regex(/^t=\d+,v1=[0-9a-f]{64}$/)
            .openapi({
              description: "`t=<unix seconds>,v1=<hex HMAC-SHA256 of <t>.<raw body>>`, keyed with the endpoint's signing secret",
              example: `t=1767225600,v1=${"0".repeat(64)}`,
            }),
        }),
        body: { required: true, content: { "application/json": { schema: EVENT_SCHEMAS[type], example: documentedEvent(type) } } },
      },
      responses: {
        "2XX": { description: `Received: any 2xx within ${DELIVERY_TIMEOUT_MS / 1000} s (the body is not read)` },
        default: {
          description:
            "Anything else (a 3xx included: redirects are not followed), a timeout or a refused connection: retried with backoff for about 3 days",
        },
      },
    });
  }
}
