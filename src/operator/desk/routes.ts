import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { Context, MiddlewareHandler } from "hono";
import { Hono } from "hono";
import { getCookie } from "hono/cookie";
import { z } from "zod";
import type { AppEnv } from "../../env";
import { logEvent } from "../../platform/logging";
import { DESK_BASE } from "../../platform/planes";
import { fromOwnPages } from "../../platform/same-origin";
import { ediOf } from "../edi/bindings";
import { auditStatement } from "../onboarding/audit";
import { returnSections } from "./document-pages";
import { deskDocumentRoutes, doneMessage } from "./document-routes";
import { returnsOfLine } from "./documents";
import { auditDeskAction, countOrText, deskProblem, formFields, signedInForm } from "./forms";
import { deskOfferRoutes } from "./offer-routes";
import {
  DESK_CSP,
  DESK_CSS,
  DESK_JS,
  forbiddenPage,
  homePage,
  invitationGonePage,
  invitationPage,
  linePage,
  notFoundPage,
  signInPage,
  usersPage,
} from "./pages";
import { authenticate, authenticationOptions, PasskeyRefused, registerPasskey, registrationOptions, relyingPartyOf } from "./passkeys";
import {
  clearedSessionCookie,
  type DeskSession,
  endSession,
  endSessionsStatement,
  readSession,
  SESSION_COOKIE,
  sessionCookie,
  startSession,
} from "./sessions";
import { DESK_ROLES, EMAIL_PATTERN, InvitationRefused, invitedUser, inviteUser, setUserDisabled, vendorUsers } from "./users";
import {
  ATTENTION_LISTS,
  confirmLine,
  DeskSignedOut,
  deskApi,
  LINE_ACTIONS,
  type LineAction,
  lineOf,
  moveLine,
  scannedCodes,
  stateCounts,
  WORK_STATES,
  type WorkFilter,
  worklistPage,
} from "./vendor-work";

/**
 * The order desk's routes (docs/desk.md), mounted at /desk on the operator plane: pages, the passkey ceremonies
 * (JSON), sign-out. Every answer carries DESK_CSP and no-store; every POST must come from the desk's own origin (the
 * Origin header), and a signed-in form must carry the session's CSRF token.
 */

declare module "hono" {
  interface ContextVariableMap {
    deskSession: DeskSession | null;
  }
}

const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  c.header("Content-Security-Policy", DESK_CSP);
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Referrer-Policy", "no-referrer");
  c.header("X-Frame-Options", "DENY");
  if (!c.req.path.startsWith("/desk/assets/")) c.header("Cache-Control", "no-store");
};

/**
 * A POST from another origin (a cross-site form or fetch) is refused before anything else. By fetch metadata first:
 * under Referrer-Policy no-referrer, Chromium sends a form post's Origin as "null" (the e2e test found it).
 */
const sameOrigin: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method === "POST" && !fromOwnPages(c)) {
    return deskProblem(403, "Requests to the desk must come from the desk's own pages (Origin).");
  }
  await next();
};

const loadSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  // A page's own polling (the worklist's counts, a price file's progress) is not the user's activity.
  const polling =
    c.req.method === "GET" &&
    (c.req.path === `${DESK_BASE}/counts` || /^\/desk\/price-files\/imp_[A-Za-z0-9]{20}\/progress$/.test(c.req.path));
  c.set("deskSession", await readSession(c.env.DB, getCookie(c, SESSION_COOKIE), new Date(), !polling));
  await next();
};

const signedInAs = (c: Context<AppEnv>, userId: number) =>
  startSession(c.env.DB, userId).then((id) => {
    c.header("Set-Cookie", sessionCookie(id));
    return c.json({ redirect: "/desk" }, 200);
  });

const jsonBody = async <T>(c: Context<AppEnv>): Promise<T | null> => {
  try {
    const body = await c.req.json<T>();
    return body !== null && typeof body === "object" ? body : null;
  } catch {
    return null;
  }
};

/** The invitation form of the users page: the fields of the operator's invitation. */
const DeskInviteForm = z.object({
  email: z.string().trim().max(254).regex(EMAIL_PATTERN, "must be an email address"),
  displayName: z.string().trim().min(1, "is required").max(100),
  role: z.enum(DESK_ROLES),
});

const DONE: Record<LineAction, string> = {
  acknowledge: "the line is confirmed",
  backorder: "the line is backordered",
  reject: "the line is rejected",
  ship: "the parcel is shipped",
};
const DONE_CONFIRMED = "the confirmation is sent";

/** A confirmation form as one line of the vendor API's confirmation: the code and the fields filled in. */
function confirmationOf(field: (name: string) => string): Record<string, unknown> {
  const quantity = field("quantity");
  const substitute = field("substitutePartNumber");
  return {
    code: field("code"),
    ...(field("unitPrice") ? { unitPrice: field("unitPrice") } : {}),
    ...(quantity ? { quantity: countOrText(quantity) } : {}),
    ...(field("promisedShipDate") ? { promisedShipDate: field("promisedShipDate") } : {}),
    ...(field("expectedShipDate") ? { expectedShipDate: field("expectedShipDate") } : {}),
    ...(substitute ? { substitute: { partNumber: substitute, description: field("substituteDescription") } } : {}),
    ...(field("reason") ? { reason: field("reason") } : {}),
  };
}

/** A ship form as the vendor API's ship: tracking, carrier and quantity when given, the scanned codes. */
function shipBody(field: (name: string) => string): Record<string, unknown> {
  const units = scannedCodes(field("units"));
  const quantity = field("quantity");
  return {
    trackingNumber: field("trackingNumber"),
    ...(field("carrierName") ? { carrierName: field("carrierName") } : {}),
    ...(quantity ? { quantity: countOrText(quantity) } : {}),
    ...(units.length > 0 ? { units } : {}),
  };
}

export const deskRoutes = new Hono<AppEnv>()
  // The desk cannot act for the user (its vendor or the desk's client disabled meanwhile): signed out, not an error.
  // The desk's own error handler, which hono wraps its handlers with when the plane mounts it, sees it first.
  .onError((error, c) => {
    if (error instanceof DeskSignedOut) return c.redirect("/desk/sign-in", 303);
    throw error;
  })
  .use("*", securityHeaders, sameOrigin, loadSession)
  .get("/assets/desk.css", (c) =>
    c.body(DESK_CSS, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=300" }),
  )
  .get("/assets/desk.js", (c) =>
    c.body(DESK_JS, 200, { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=300" }),
  )
  .get("/", async (c) => {
    const session = c.get("deskSession");
    if (!session) return c.redirect("/desk/sign-in", 303);
    const api = await deskApi(ediOf(c.env), session.userId);
    const chosen = c.req.query("status") ?? "open";
    const attention = ATTENTION_LISTS.find((list) => list.attention === chosen)?.attention;
    const status = attention ?? (WORK_STATES.some((state) => state.status === chosen) ? chosen : "open");
    // An attention list is of any order: the order number filters the states only.
    const orderNumber = attention ? "" : (c.req.query("orderNumber") ?? "").trim().slice(0, 40);
    const q = attention ? "" : (c.req.query("q") ?? "").trim().slice(0, 500);
    const page = Math.min(Math.max(0, Number.parseInt(c.req.query("page") ?? "0", 10) || 0), 10_000);
    const filter: WorkFilter = attention
      ? { attention }
      : {
          statuses: status === "open" ? WORK_STATES.map((state) => state.status) : [status],
          orderNumber: orderNumber || undefined,
          q: q || undefined,
        };
    const [counts, listed] = await Promise.all([stateCounts(api), worklistPage(api, filter, page)]);
    const error =
      listed.error === 400
        ? `That search was refused: ${listed.detail ?? "check the order number and the query."}`
        : listed.error
          ? `The lines could not be read (${listed.error}).`
          : null;
    return c.html(
      homePage(session, { counts, lines: listed.lines, total: listed.total, page, status, orderNumber, q, error }),
      listed.error === 400 ? 400 : 200,
    );
  })
  .get("/counts", async (c) => {
    const session = c.get("deskSession");
    if (!session) return c.json({ title: "Unauthorized", status: 401, detail: "Sign in again." }, 401);
    return c.json({ counts: await stateCounts(await deskApi(ediOf(c.env), session.userId)) });
  })
  .get("/lines/:lineId{[0-9]{1,12}}", async (c) => {
    const session = c.get("deskSession");
    if (!session) return c.redirect("/desk/sign-in", 303);
    const api = await deskApi(ediOf(c.env), session.userId);
    const lineId = Number(c.req.param("lineId"));
    const [line, returns] = await Promise.all([lineOf(api, lineId), returnsOfLine(api, lineId)]);
    if (!line) return c.html(notFoundPage(session), 404);
    const done = c.req.query("done");
    const message =
      done === "confirm"
        ? { text: `Done: ${DONE_CONFIRMED}.`, error: false }
        : done && (LINE_ACTIONS as readonly string[]).includes(done)
          ? { text: `Done: ${DONE[done as LineAction]}.`, error: false }
          : doneMessage(done);
    return c.html(linePage(session, line, message, returnSections(session, returns)));
  })
  .post("/lines/:lineId{[0-9]{1,12}}/confirm", async (c) => {
    const session = await signedInForm(c);
    if (session instanceof Response) return session;
    const lineId = Number(c.req.param("lineId"));
    const field = await formFields(c);
    const api = await deskApi(ediOf(c.env), session.userId);
    const confirmation = confirmationOf(field);
    const sent = await confirmLine(api, lineId, confirmation);
    if (sent.ok) {
      await auditDeskAction(c.env.DB, session, "desk_user.line_confirmed", { lineId, ...confirmation });
      return c.redirect(`/desk/lines/${lineId}?done=confirm`, 303);
    }
    const line = await lineOf(api, lineId);
    if (!line) return c.html(notFoundPage(session), 404);
    return c.html(
      linePage(session, line, { text: `Not done: ${sent.detail ?? `the vendor API answered ${sent.status}`}`, error: true }),
      422,
    );
  })
  .post("/lines/:lineId{[0-9]{1,12}}/:action{acknowledge|backorder|reject|ship}", async (c) => {
    const session = await signedInForm(c);
    if (session instanceof Response) return session;
    const lineId = Number(c.req.param("lineId"));
    const action = c.req.param("action") as LineAction;
    const field = await formFields(c);
    const body: Record<string, unknown> =
      action === "acknowledge"
        ? { promisedShipDate: field("promisedShipDate") }
        : action === "backorder"
          ? { expectedShipDate: field("expectedShipDate"), ...(field("reason") ? { reason: field("reason") } : {}) }
          : action === "ship"
            ? shipBody(field)
            : { reason: field("reason") };
    const api = await deskApi(ediOf(c.env), session.userId);
    const moved = await moveLine(api, lineId, action, body);
    if (moved.ok) {
      await auditDeskAction(c.env.DB, session, `desk_user.line_${action}`, { lineId, ...body });
      return c.redirect(`/desk/lines/${lineId}?done=${action}`, 303);
    }
    const line = await lineOf(api, lineId);
    if (!line) return c.html(notFoundPage(session), 404);
    return c.html(
      linePage(session, line, { text: `Not done: ${moved.detail ?? `the vendor API answered ${moved.status}`}`, error: true }),
      422,
    );
  })
  .route("/", deskDocumentRoutes)
  .route("/", deskOfferRoutes)
  .get("/sign-in", (c) => c.html(signInPage()))
  .get("/invitations/:token", async (c) => {
    const invited = await invitedUser(c.env.DB, c.req.param("token"));
    return invited ? c.html(invitationPage(invited, c.req.param("token"))) : c.html(invitationGonePage(), 410);
  })
  .post("/passkeys/registration-options", async (c) => {
    const body = await jsonBody<{ token?: unknown }>(c);
    const invited = typeof body?.token === "string" ? await invitedUser(c.env.DB, body.token) : null;
    if (!invited) return deskProblem(410, "This invitation was used, has expired or was withdrawn.");
    return c.json(await registrationOptions(c.env.DB, relyingPartyOf(c.req.url), invited));
  })
  .post("/passkeys/registration", async (c) => {
    const body = await jsonBody<{ token?: unknown; response?: RegistrationResponseJSON }>(c);
    const invited = typeof body?.token === "string" ? await invitedUser(c.env.DB, body.token) : null;
    if (!invited) return deskProblem(410, "This invitation was used, has expired or was withdrawn.");
    if (!body?.response || typeof body.response !== "object") return deskProblem(400, "`response` is the credential's JSON (toJSON()).");
    try {
      await registerPasskey(c.env.DB, relyingPartyOf(c.req.url), invited, body.response);
    } catch (error) {
      if (!(error instanceof PasskeyRefused)) throw error;
      logEvent("warn", { event: "desk.passkey_refused", userId: invited.userId, message: error.message.slice(0, 200) });
      return deskProblem(400, `The passkey was refused: ${error.message}`);
    }
    return signedInAs(c, invited.userId);
  })
  .post("/passkeys/authentication-options", async (c) => c.json(await authenticationOptions(c.env.DB, relyingPartyOf(c.req.url))))
  .post("/passkeys/authentication", async (c) => {
    const body = await jsonBody<{ response?: AuthenticationResponseJSON }>(c);
    if (!body?.response || typeof body.response !== "object") return deskProblem(400, "`response` is the credential's JSON (toJSON()).");
    let userId: number;
    try {
      userId = await authenticate(c.env.DB, relyingPartyOf(c.req.url), body.response);
    } catch (error) {
      if (!(error instanceof PasskeyRefused)) throw error;
      return deskProblem(403, "This passkey does not sign in here (unknown, withdrawn, or its user or vendor is disabled).");
    }
    return signedInAs(c, userId);
  })
  .get("/users", async (c) => {
    const session = c.get("deskSession");
    if (!session) return c.redirect("/desk/sign-in", 303);
    if (session.role !== "admin") return c.html(forbiddenPage(session), 403);
    return c.html(usersPage(session, await vendorUsers(c.env.DB, session.vendorId), null, null));
  })
  .post("/users", async (c) => {
    const session = await signedInForm(c);
    if (session instanceof Response) return session;
    if (session.role !== "admin") return c.html(forbiddenPage(session), 403);
    const form = await c.req.parseBody();
    const parsed = DeskInviteForm.safeParse(form);
    const users = () => vendorUsers(c.env.DB, session.vendorId);
    if (!parsed.success) {
      const text = `Not invited: ${parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join(" ")}`;
      return c.html(usersPage(session, await users(), { text, error: true }, null), 422);
    }
    try {
      const invitation = await inviteUser(c.env.DB, {
        vendorId: session.vendorId,
        ...parsed.data,
        invitedBy: `vendor_user:${session.userId}`,
      });
      const url = new URL(`${DESK_BASE}/invitations/${invitation.token}`, c.req.url).href;
      return c.html(
        usersPage(session, await users(), null, { email: parsed.data.email.toLowerCase(), url, expiresAt: invitation.expiresAt }),
        201,
      );
    } catch (error) {
      if (!(error instanceof InvitationRefused)) throw error;
      return c.html(usersPage(session, await users(), { text: `Not invited: ${error.message}`, error: true }, null), 422);
    }
  })
  .post("/users/:userId{[0-9]{1,12}}/:action{disable|enable}", async (c) => {
    const session = await signedInForm(c);
    if (session instanceof Response) return session;
    if (session.role !== "admin") return c.html(forbiddenPage(session), 403);
    const userId = Number(c.req.param("userId"));
    const users = () => vendorUsers(c.env.DB, session.vendorId);
    if (userId === session.userId) {
      return c.html(usersPage(session, await users(), { text: "You cannot disable yourself: another admin can.", error: true }, null), 422);
    }
    const disable = c.req.param("action") === "disable";
    const found = await setUserDisabled(c.env.DB, session.vendorId, userId, disable, `vendor_user:${session.userId}`);
    if (!found) return c.html(notFoundPage(session), 404);
    return c.html(
      usersPage(
        session,
        await users(),
        { text: disable ? "Disabled: that user is signed out everywhere." : "Enabled.", error: false },
        null,
      ),
    );
  })
  .post("/sign-out", async (c) => {
    const session = await signedInForm(c);
    if (session instanceof Response) return session;
    await endSession(c.env.DB, session.idHash);
    c.header("Set-Cookie", clearedSessionCookie());
    return c.redirect("/desk/sign-in", 303);
  })
  .post("/sign-out-everywhere", async (c) => {
    const session = await signedInForm(c);
    if (session instanceof Response) return session;
    await c.env.DB.batch([
      endSessionsStatement(c.env.DB, session.userId),
      auditStatement(
        c.env.DB,
        {
          actor: `vendor_user:${session.userId}`,
          action: "desk_user.signed_out_everywhere",
          targetType: "vendor_user",
          targetId: String(session.userId),
          before: null,
          after: null,
        },
        new Date().toISOString(),
      ),
    ]);
    c.header("Set-Cookie", clearedSessionCookie());
    return c.redirect("/desk/sign-in", 303);
  });
