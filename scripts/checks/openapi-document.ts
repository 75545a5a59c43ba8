import { createApp } from "../../src/api/app";
import { createAdminApp } from "../../src/operator/app";

/**
 * The OpenAPI document exactly as the API Worker serves it (GET /customer/api/openapi.json), built in Node from the
 * same apps, the operator plane's behind the ADMIN binding as in production: for tools that cannot run in workerd (the
 * linters, Node tests). It needs no bindings beyond the vars below.
 */
export async function servedOpenApiDocument(origin: string, issuer = `${origin}/auth`): Promise<Record<string, unknown>> {
  const vars = {
    ISSUER: issuer,
    AUDIENCE: "medparts-customer-api",
    VENDOR_AUDIENCE: "medparts-vendor-api",
    OPERATOR_AUDIENCE: "medparts-admin-api",
    SERVICE_NAME: "medparts-customer-api",
  };
  const admin = createAdminApp();
  const ADMIN = { fetch: (request: Request) => admin.request(request, {}, vars) };
  const res = await createApp().request(`${origin}/customer/api/openapi.json`, {}, { ...vars, ADMIN });
  if (res.status !== 200) throw new Error(`openapi.json answered ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}
