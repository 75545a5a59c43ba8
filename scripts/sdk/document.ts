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
