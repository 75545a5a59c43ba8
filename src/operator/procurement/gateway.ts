import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { readAtMost } from "../../platform/body-limit";
import { CXML_PATH } from "../../platform/planes";
import { Remembered } from "../../platform/remembered";
import { ApiUnavailable, accessToken, apiOf } from "./api";
import { type CxmlCall, type Outcome, refused } from "./call";
import { type Connection, connectionOfCredentials } from "./connections";
import { childNamed, credentialsOf, el, type Markup, responseDocument } from "./cxml";
import { orderRequest } from "./order-request";
import { punchOutSetup } from "./punchout-setup";
import { readXml, XML_LIMITS, type XmlElement, XmlRefused } from "./xml";

/**
 * The one cXML endpoint (POST /cxml; docs/api.md, "Procurement systems (cXML)"): a procurement suite is configured with a
 * single URL per supplier. Every answer is a cXML Response with HTTP 200 (cXML carries the outcome in Status), but a body
 * over the size limit: HTTP 413 (it was not read to its end). No request ever gets a 5xx: an unexpected failure is a cXML
 * 500, which suites retry.
 */

export const CXML_CONTENT_TYPE = "text/xml; charset=UTF-8";

const HANDLERS: Record<string, (call: CxmlCall) => Promise<Outcome>> = {
  ProfileRequest: async (call) => profile(call),
  PunchOutSetupRequest: punchOutSetup,
  OrderRequest: orderRequest,
};

/** Connections by credentials, remembered as the API remembers enabled clients (a change shows within the TTL). */
const connections = new Remembered<Connection | null>();
/** Forgets every remembered connection (tests that hand an identity to another connection). */
export const forgetConnections = () => connections.clear();

async function readBody(request: Request): Promise<Uint8Array | "too large"> {
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > XML_LIMITS.bytes) return "too large";
  if (!request.body) return new Uint8Array();
  return (await readAtMost(request.body, XML_LIMITS.bytes)) ?? "too large";
}

const reply = (outcome: Outcome, httpStatus = 200) =>
  new Response(responseDocument(outcome.code, outcome.detail, outcome.body), {
    status: httpStatus,
    headers: { "Content-Type": CXML_CONTENT_TYPE, "Cache-Control": "no-store" },
  });

export async function handleCxml(c: Context<AppEnv>): Promise<Response> {
  const bytes = await readBody(c.req.raw);
  if (bytes === "too large") {
    return reply(refused(413, `The document is over ${XML_LIMITS.bytes} bytes, the most this endpoint reads.`), 413);
  }
  let root: XmlElement;
  try {
    root = readXml(bytes);
  } catch (err) {
    if (err instanceof XmlRefused) return reply(refused(err.tooLarge ? 413 : 400, `Not a readable cXML document: ${err.message}.`));
    throw err;
  }
  try {
    return reply(await answer(c, root));
  } catch (err) {
    if (err instanceof ApiUnavailable) return reply(refused(500, "Medparts is briefly unavailable: send the document again."));
    console.error(JSON.stringify({ message: "cxml.failed", error: err instanceof Error ? err.message : String(err) }));
    return reply(refused(500, "Medparts could not process the document: send it again; if this persists, contact Medparts support."));
  }
}

async function answer(c: Context<AppEnv>, root: XmlElement): Promise<Outcome> {
  if (root.name !== "cXML") return refused(400, `The root element is ${root.name}, not cXML (at /${root.name}).`);
  const request = childNamed(root, "Request");
  if (!request) {
    const other = root.children.find((child) => child.name !== "Header")?.name;
    return refused(
      406,
      `Medparts receives Request documents (ProfileRequest, PunchOutSetupRequest, OrderRequest)${other ? `, not ${other}` : ""} (at /cXML).`,
    );
  }
  const message = request.children[0];
  if (!message) return refused(400, "The Request is empty (at /cXML/Request).");
  const handler = Object.hasOwn(HANDLERS, message.name) ? HANDLERS[message.name] : undefined;
  if (!handler) {
    return refused(
      406,
      `Medparts does not accept ${message.name}: it receives ProfileRequest, PunchOutSetupRequest and OrderRequest (at /cXML/Request/${message.name}).`,
    );
  }
  const header = childNamed(root, "Header");
  if (!header) return refused(400, "The document has no Header (at /cXML/Header).");
  const from = credentialsOf(childNamed(header, "From"));
  const sender = credentialsOf(childNamed(header, "Sender"));
  const to = credentialsOf(childNamed(header, "To"));
  const secret = sender.find((credential) => credential.sharedSecret !== null)?.sharedSecret ?? "";
  const mode = request.attributes.deploymentMode === "test" ? "test" : "live";
  const identities = [...from, ...sender];
  const key = `${mode} ${identities.map((credential) => `${credential.domain.toLowerCase()}:${credential.identity.toLowerCase()}`).join(" ")}`;
  const seconds = Number(c.env.CLIENT_STATUS_CACHE_SECONDS ?? "30");
  const connection = await connections.get(
    key,
    seconds,
    () => connectionOfCredentials(c.env.DB, mode, identities, from.length),
    (found) => found !== null,
  );
  const unauthorized = refused(
    401,
    "The From and Sender credentials and SharedSecret do not name an enabled connection (at /cXML/Header).",
  );
  if (!connection?.enabled || !secret) return unauthorized;
  const token = await accessToken(apiOf(c.env), connection.clientId, secret, c.req.header("CF-Connecting-IP"), seconds);
  if (!token) return unauthorized;
  // Only an authenticated sender learns whom the connection addresses.
  const supplier = connection.supplierIdentity;
  const addressed = to.some(
    (credential) =>
      credential.domain.toLowerCase() === supplier.domain.toLowerCase() &&
      credential.identity.toLowerCase() === supplier.identity.toLowerCase(),
  );
  if (!addressed) {
    return refused(
      401,
      `The To credential does not name Medparts as this connection knows it (${supplier.domain} ${supplier.identity}) (at /cXML/Header/To).`,
    );
  }
  return handler({
    c,
    connection,
    token: token.token,
    tokenExpiresAt: token.expiresAt,
    request,
    message,
    payloadId: root.attributes.payloadID ?? "",
  });
}

/** ProfileRequest: the transactions Medparts accepts, each at the one URL. */
function profile(call: CxmlCall): Outcome {
  return { code: 200, body: profileResponse(new URL(CXML_PATH, call.c.req.url).toString()) };
}

export const PROFILE_EFFECTIVE_DATE = "2026-11-29T00:00:00+00:00";

export function profileResponse(cxmlUrl: string): Markup {
  const transaction = (name: string) => el("Transaction", { requestName: name }, el("URL", {}, cxmlUrl));
  return el(
    "ProfileResponse",
    { effectiveDate: PROFILE_EFFECTIVE_DATE },
    el("Option", { name: "Service.Name" }, "Medparts"),
    ["ProfileRequest", "PunchOutSetupRequest", "OrderRequest"].map(transaction),
  );
}
