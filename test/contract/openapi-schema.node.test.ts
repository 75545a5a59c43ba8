import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { generatedDocument } from "../helpers/generated-document";

/** Runs in Node (vitest project "node"): the OpenAPI 3.1 schema validator reads its schemas from disk, which workerd cannot. */

describe("OpenAPI document against the OpenAPI 3.1 schema", () => {
  it("is valid", async () => {
    const result = await new Validator().validate(await generatedDocument());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("the validator does reject a broken document (the check can fail)", async () => {
    const document = await generatedDocument();
    const broken = { ...document, paths: { "/x": { get: { responses: { 200: { content: "not an object" } } } } } };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it("takes the token URL from the ISSUER var", async () => {
    const document = (await generatedDocument("https://login.example/auth")) as any;
    expect(document.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl).toBe("https://login.example/auth/oauth2/token");
  });
});
