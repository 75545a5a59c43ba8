import { referencedComponents } from "../../src/platform/openapi/audiences";

/**
 * The SDKs' OpenAPI document (sdks/openapi.json): the served document of the latest version with the paths the SDKs
 * speak, the customer and vendor APIs and the token endpoint, and everything else of it (components, webhooks) whole.
 */

type Document = Record<string, unknown> & {
  paths: Record<string, unknown>;
  info: { version: string };
  components?: unknown;
  webhooks?: unknown;
};

/** The origin the committed document names (servers, token URL): `npm start`'s. */
export const SDK_DOCUMENT_ORIGIN = "http://localhost:8787";

const SDK_PATH = /^\/(customer|vendor)\/api\//;
const LEFT_OUT = new Set(["/customer/api/openapi.json"]);
const TOKEN_PATH = "/auth/oauth2/token";

export function sdkDocument(served: Record<string, unknown>): Document {
  const document = served as Document;
  const paths = Object.fromEntries(
    Object.entries(document.paths).filter(([path]) => path === TOKEN_PATH || (SDK_PATH.test(path) && !LEFT_OUT.has(path))),
  );
  const kept = { ...document, paths };
  return { ...kept, components: reachableComponents(kept) };
}

/** The components the kept paths and webhooks name, directly or through other components: the operator's and SCIM's go. */
function reachableComponents(document: Document): Record<string, Record<string, unknown>> {
  const components = (document.components ?? {}) as Record<string, Record<string, unknown>>;
  const used = referencedComponents([document.paths, document.webhooks], components);
  return Object.fromEntries(
    Object.entries(components).map(([kind, entries]) => [
      kind,
      kind === "securitySchemes" ? entries : Object.fromEntries(Object.entries(entries).filter(([name]) => used.has(`${kind}/${name}`))),
    ]),
  );
}

/** The document as the SDKs' folder keeps it: stable, two-space JSON with a final newline. */
export const documentText = (document: Record<string, unknown>) => `${JSON.stringify(document, null, 2)}\n`;

/**
 * The writes the API deduplicates by `Idempotency-Key` (the operations that declare the header), as "METHOD /path":
 * the only POSTs and PATCHes an SDK may send again after a failure that leaves unknown whether the first was applied (a
 * network error, a timeout, a 5xx). GET, PUT and DELETE are safe to resend by their meaning (RFC 9110 9.2.2).
 */
export function keyedWrites(document: Record<string, unknown>): string[] {
  const writes: string[] = [];
  for (const [path, item] of Object.entries(
    (document.paths ?? {}) as Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>,
  )) {
    for (const method of ["post", "patch"]) {
      const parameters = item[method]?.parameters ?? [];
      if (parameters.some((p) => p.in === "header" && p.name.toLowerCase() === "idempotency-key"))
        writes.push(`${method.toUpperCase()} ${path}`);
    }
  }
  return writes;
}

/** The TypeScript SDK's src/keyed-writes.ts: the same list for its transport. */
export function keyedWritesModule(writes: string[], version: string): string {
  return [
    `// Generated from the Medparts OpenAPI document, API version ${version}, by \`npm run sdk:generate\`: do not edit.`,
    "",
    "/**",
    " * The POSTs and PATCHes the API deduplicates by Idempotency-Key: the only ones sent again after a failure that leaves",
    " * unknown whether the first was applied (a network error, a timeout, a 5xx). GET, PUT and DELETE are safe to resend.",
    " */",
    "export const KEYED_WRITES: readonly string[] = [",
    ...writes.map((write) => `  ${JSON.stringify(write)},`),
    "];",
    "",
  ].join("\n");
}
