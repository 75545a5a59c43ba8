import { ProblemError } from "../platform/errors";

/** 422 for offers and agreements: a reference that does not hold (an unknown product, tenant, SKU...), each named in `errors`. */
export const unprocessable = (errors: string[]) =>
  new ProblemError(422, "unprocessable", "Unprocessable", "A reference in the request does not hold; `errors` names each.", { errors });
