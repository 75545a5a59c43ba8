import type { PROBLEM_TYPES } from "./problem-pages";

/** A problem type's slug: one with its error page (./problem-pages.ts). */
export type ProblemSlug = keyof typeof PROBLEM_TYPES;

/** Where a problem type's page is, on the deployment that answered. */
export const PROBLEM_PAGE_PATH = "/docs/errors/";

/** The problem `type` URI: the error page of this deployment (RFC 9457 3.1.1 lets it be dereferenced by a person). */
export const problemTypeUri = (requestUrl: string, slug: ProblemSlug): string => new URL(PROBLEM_PAGE_PATH + slug, requestUrl).href;
