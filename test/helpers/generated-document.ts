import { createApp } from "../../src/app";

/**
 * For Node tests (`*.node.test.ts`, tools that cannot run in workerd): the document as the Worker serves it, from the
 * same app; it needs no bindings beyond the ISSUER and audience vars.
 */
export async function generatedDocument(issuer = "https://api.medparts.example/auth"): Promise<Record<string, unknown>> {
  const res = await createApp().request(
    "https://api.medparts.example/customer/api/openapi.json",
    {},
    { ISSUER: issuer, AUDIENCE: "medparts-customer-api", VENDOR_AUDIENCE: "medparts-vendor-api", SERVICE_NAME: "medparts-customer-api" },
  );
  if (res.status !== 200) throw new Error(`openapi.json answered ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}
