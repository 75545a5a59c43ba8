/** Guides in the order of the navigation: the file portal/guides/<slug>.md is the page /docs/guides/<slug>. */
export const GUIDES = [
  "getting-started",
  "authentication",
  "orders",
  "webhooks",
  "sandbox",
  "versions",
  "errors",
  "request-logs",
  "offers",
  "catalog-import",
  "scan-to-order",
  "recalls",
  "edi",
  "order-desk",
  "scim",
] as const;
