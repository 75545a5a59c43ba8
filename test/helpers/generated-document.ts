import { servedOpenApiDocument } from "../../scripts/checks/openapi-document";

/** For Node tests (`*.node.test.ts`, tools that cannot run in workerd): the document as the Worker serves it. */
export function generatedDocument(issuer = "https://api.medparts.example/auth"): Promise<Record<string, unknown>> {
  return servedOpenApiDocument("https://api.medparts.example", issuer);
}
