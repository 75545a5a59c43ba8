import { z } from "@hono/zod-openapi";
import { authenticatedErrorResponses, ProblemSchema, ValidationProblemSchema } from "../platform/schemas";

/** Error responses of the search endpoints: a 400 is either a validation problem or an invalid `q`. */
export const searchErrorResponses = {
  ...authenticatedErrorResponses,
  400: {
    description:
      "Validation failed (limit, offset, sortBy, sortDir, body), or the `q` query is invalid: problem with title `Invalid search query` and a `detail` naming the problem",
    content: { "application/problem+json": { schema: z.union([ValidationProblemSchema, ProblemSchema]) } },
  },
} as const;
