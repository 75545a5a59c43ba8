import { type CxmlCall, type Outcome, refused } from "./call";
import { at, childNamed, el, textOf } from "./cxml";
import { cartLineOf, readItems } from "./items";
import { createSession, type PunchOutOperation } from "./sessions";

/**
 * PunchOutSetupRequest (create, edit, inspect): a new PunchOut session for the connection's requester and facility, and
 * its StartPage, a one-time URL valid 5 minutes. Edit and inspect reopen the cart the suite sends back as ItemOut.
 * One round trip when the connection and its token are warm: the session's INSERT.
 */

const PATH = "/cXML/Request/PunchOutSetupRequest";
const OPERATIONS: readonly PunchOutOperation[] = ["create", "edit", "inspect"];
export const MAX_BUYER_COOKIE = 4096;
/** The orders API's most lines of an order (ORDER_LIMITS.maxLines, src/api/orders/options.ts; a test keeps them equal). */
export const MAX_CART_LINES = 50;

export function formPostUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "is not an absolute URL";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "is not an http or https URL";
  if (url.username || url.password) return "must not contain credentials";
  return null;
}

export async function punchOutSetup(call: CxmlCall): Promise<Outcome> {
  const setup = call.message;
  const operation = (setup.attributes.operation ?? "create") as PunchOutOperation;
  if (!OPERATIONS.includes(operation)) {
    return refused(406, `PunchOut operation "${operation}" is not supported: create, edit or inspect (at ${PATH}/@operation).`);
  }
  const cookieElement = childNamed(setup, "BuyerCookie");
  if (!cookieElement) return refused(400, `BuyerCookie is missing (at ${PATH}/BuyerCookie).`);
  const buyerCookie = cookieElement.text;
  if (new TextEncoder().encode(buyerCookie).byteLength > MAX_BUYER_COOKIE) {
    return refused(400, `BuyerCookie is over ${MAX_BUYER_COOKIE} bytes (at ${PATH}/BuyerCookie).`);
  }
  const formPostUrl = textOf(at(setup, "BrowserFormPost", "URL"));
  if (!formPostUrl) return refused(400, `BrowserFormPost/URL is missing: the cart is posted there (at ${PATH}/BrowserFormPost/URL).`);
  const urlProblem = formPostUrlProblem(formPostUrl);
  if (urlProblem) return refused(400, `BrowserFormPost/URL ${urlProblem} (at ${PATH}/BrowserFormPost/URL).`);
  const { items, problems } = readItems(setup, PATH);
  if (operation !== "create" && problems.length > 0) return refused(400, problems.join(" "));
  if (items.length > MAX_CART_LINES) return refused(400, `A cart holds at most ${MAX_CART_LINES} lines (at ${PATH}/ItemOut).`);
  const startCode = await createSession(call.c.env.DB, {
    connectionId: call.connection.id,
    operation,
    buyerCookie,
    formPostUrl,
    token: call.token,
    tokenExpiresAt: call.tokenExpiresAt,
    cart: operation === "create" ? [] : items.map(cartLineOf),
  });
  return { code: 200, body: setupResponse(new URL(`/punchout/start/${startCode}`, call.c.req.url).toString()) };
}

export const setupResponse = (startPage: string) => el("PunchOutSetupResponse", {}, el("StartPage", {}, el("URL", {}, startPage)));
