import { createRoute, z } from "@hono/zod-openapi";
import { database } from "../../db/client";
import { PaginationSchema } from "../../platform/pagination";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import { envelopeSchema } from "../../platform/schemas";
import { getPage, searchQueryParams } from "../../query/params";
import { searchErrorResponses } from "../../query/responses";
import { scopedAccess } from "../../shared/auth/bearer";
import { searchManufacturers } from "./search";
import { manufacturerSearch } from "./search-fields";

const ManufacturerSchema = z.object({ manufacturerId: z.number().int(), name: z.string() }).openapi("Manufacturer");

const searchRoute = createRoute({
  method: "get",
  path: "/manufacturers/search",
  tags: ["Manufacturers"],
  summary: "Search manufacturers (global list) with the q language",
  description: "The manufacturers of the global catalog (the same for every tenant), filtered, sorted and paged with a q query.",
  ...scopedAccess("manufacturers:read"),
  request: { query: searchQueryParams(manufacturerSearch, 'name~"med" AND -name:"Medtronic"') },
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
  return c.json(envelope(c, await searchManufacturers(database(c.env.CATALOG), params, getPage(params))), 200);
});
