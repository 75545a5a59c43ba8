import { createRoute, z } from "@hono/zod-openapi";
import { PROCUREMENT_TAG } from "../../platform/openapi/info";
import { CXML_PATH } from "../../platform/planes";
import { createRouter } from "../../platform/router";
import { handleCxml } from "./gateway";
import { XML_LIMITS } from "./xml";

/** The cXML endpoint in the contract (docs/api.md, "Procurement systems (cXML)"), with its XML media types. */

const document = (description: string) =>
  z.string().openapi({ description, example: '<?xml version="1.0" encoding="UTF-8"?><cXML payloadID="..." timestamp="...">...</cXML>' });

const cxmlRoute = createRoute({
  method: "post",
  path: CXML_PATH,
  tags: [PROCUREMENT_TAG],
  summary: "Send a cXML document",
  description: `The one cXML endpoint: ProfileRequest, PunchOutSetupRequest, OrderRequest (new, update, delete). A procurement suite's documents, authenticated by the From or Sender credentials and the SharedSecret of a procurement connection (cXML's own credentials, no bearer token). Every answer is a cXML Response whose Status carries the outcome (200, 400, 401, 406, 409, 500), with HTTP 200; a document over ${XML_LIMITS.bytes} bytes is HTTP 413. DTDs are never fetched and entities other than XML's own are refused.`,
  security: [],
  request: {
    body: {
      required: true,
      content: {
        "text/xml": { schema: document("A cXML 1.2 document (UTF-8)") },
        "application/xml": { schema: document("A cXML 1.2 document (UTF-8)") },
      },
    },
  },
  responses: {
    200: {
      description: "A cXML Response: its Status says the outcome",
      content: { "text/xml": { schema: document("cXML Response") } },
    },
    413: {
      description: "Over the size limit: a cXML Response with Status 413",
      content: { "text/xml": { schema: document("cXML Response") } },
    },
  },
});

export const gatewayRoutes = createRouter().openapi(cxmlRoute, handleCxml as never);
