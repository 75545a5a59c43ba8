import type { OpenApiDocument } from "./document";

/**
 * The contract seen by one audience (the developer portal's references): the buyers' customer API, the vendors' API,
 * the operator's API, and SCIM for identity providers. Each is the whole document cut down to that audience's paths,
 * its own title and security scheme, and only the components those paths use, so a generated client or a reference
 * holds nothing of the other audiences. The whole document stays the contract; these are views of it.
 */
export const AUDIENCES = {
  customer: {
    title: "Medparts Customer API",
    summary: "Buyers and their procurement systems: users, catalog, orders, invoices, returns, events and webhooks.",
    prefixes: ["/customer/api/", "/auth/", "/.well-known/", "/health/", "/cxml"],
    securitySchemes: ["oauth2"],
    webhooks: true,
  },
  vendor: {
    title: "Medparts Vendor API",
    summary: "Vendors: the order lines they fulfil, confirmations, invoices, returns, offers and contract prices.",
    prefixes: ["/vendor/api/", "/auth/", "/.well-known/"],
    securitySchemes: ["vendorOAuth2"],
    webhooks: false,
  },
  operator: {
    title: "Medparts Operator API",
    summary: "The marketplace operator: onboarding, API clients, catalog imports, price tiers and procurement connections.",
    prefixes: ["/admin/api/", "/auth/", "/.well-known/"],
    securitySchemes: ["operatorOAuth2"],
    webhooks: false,
  },
  scim: {
    title: "Medparts SCIM 2.0",
    summary: "A health system's identity provider (Entra ID, Okta) provisioning its users over SCIM 2.0.",
    prefixes: ["/scim/v2"],
    securitySchemes: ["scimToken"],
    webhooks: false,
  },
} as const satisfies Record<
  string,
  { title: string; summary: string; prefixes: readonly string[]; securitySchemes: readonly string[]; webhooks: boolean }
>;

export type Audience = keyof typeof AUDIENCES;
export const AUDIENCE_NAMES = Object.keys(AUDIENCES) as Audience[];

const isRef = (value: unknown): value is { $ref: string } =>
  typeof value === "object" && value !== null && typeof (value as { $ref?: unknown }).$ref === "string";

const COMPONENTS = "#/components/";

/** Every component `value` references, following references into the components, as `<kind>/<name>`. */
export function referencedComponents(roots: unknown[], components: Record<string, Record<string, unknown> | undefined>): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      stack.push(...value);
    } else if (typeof value === "object" && value !== null) {
      if (isRef(value) && value.$ref.startsWith(COMPONENTS)) {
        const [kind, encoded] = value.$ref.slice(COMPONENTS.length).split("/");
        const key = `${kind}/${decodeURIComponent(encoded!)}`;
        if (!seen.has(key)) {
          seen.add(key);
          stack.push(components[kind!]?.[decodeURIComponent(encoded!)]);
        }
      }
      stack.push(...Object.values(value));
    }
  }
  return seen;
}

/** The document of one audience (a new object; `document` is not changed). */
export function audienceDocument(document: OpenApiDocument, audience: Audience): OpenApiDocument {
  const spec = AUDIENCES[audience];
  const paths = Object.fromEntries(
    Object.entries(document.paths ?? {}).filter(([path]) => spec.prefixes.some((prefix) => path.startsWith(prefix))),
  );
  const webhooks = spec.webhooks ? document.webhooks : undefined;
  const all = (document.components ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const used = referencedComponents([paths, webhooks], all);
  const components: Record<string, Record<string, unknown>> = {};
  for (const [kind, entries] of Object.entries(all)) {
    const kept = Object.entries(entries ?? {}).filter(([name]) =>
      kind === "securitySchemes" ? (spec.securitySchemes as readonly string[]).includes(name) : used.has(`${kind}/${name}`),
    );
    if (kept.length > 0) components[kind] = Object.fromEntries(kept);
  }
  components.securitySchemes ??= {};
  const operations = [...Object.values(paths), ...Object.values(webhooks ?? {})].flatMap((item) => Object.values(item ?? {}));
  const tags = new Set(operations.flatMap((operation) => (operation as { tags?: string[] })?.tags ?? []));
  const { webhooks: _webhooks, ...rest } = document;
  return {
    ...rest,
    info: { ...document.info, title: spec.title, description: `${spec.summary}\n\n${document.info.description ?? ""}`.trim() },
    paths,
    ...(webhooks ? { webhooks } : {}),
    components: components as OpenApiDocument["components"],
    tags: (document.tags ?? []).filter((tag) => tags.has(tag.name)),
  };
}
