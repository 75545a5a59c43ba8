import { createRoute, z } from "@hono/zod-openapi";
import { scopedAccess } from "../auth/bearer";
import { database } from "../db/client";
import { searchManufacturers } from "../domain/search/manufacturers";
import { PaginationSchema } from "../http/pagination";
import { envelope } from "../http/responses";
import { createRouter } from "../http/router";
import { envelopeSchema } from "../http/schemas";
import { getPage, SearchQueryParamsSchema } from "../search/params";
import { searchErrorResponses } from "../search/responses";

const ManufacturerSchema = z.object({ manufacturerId: z.number().int(), name: z.string() }).openapi("Manufacturer");

const searchRoute = createRoute({
  method: "get",
  path: "/manufacturers/search",
  tags: ["Search"],
  summary: "Search manufacturers (global list) with the q language",
  ...scopedAccess("manufacturers:read"),
  request: { query: SearchQueryParamsSchema },
  responses: {
    200: {
      description: "A page of manufacturers",
      content: {
        "application/json": { schema: envelopeSchema(z.object({ items: z.array(ManufacturerSchema), pagination: PaginationSchema })) },
      },
    },
    ...searchErrorResponses,
  },
});

export const manufacturerRoutes = createRouter().openapi(searchRoute, async (c) => {
  const params = c.req.valid("query");
  return c.json(envelope(c, await searchManufacturers(database(c.env.DB), params, getPage(params))), 200);
});
