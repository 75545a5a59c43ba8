import { z } from "@hono/zod-openapi";

/** Where a shipment goes, as the order recorded it (the spec's Shipping info address, 2.10): buyers' and vendors' views. */
export const shipToFields = {
  attentionTo: z.string().nullable(),
  address1: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  country: z.string(),
};
