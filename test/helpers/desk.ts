import { expect } from "vitest";
import { SESSION_COOKIE } from "../../src/operator/desk/sessions";
import { BASE_URL, call, json, operatorTokenFor } from "./api";
import { SoftwareAuthenticator } from "./passkeys";

/** The order desk as a browser uses it (docs/desk.md): its own origin, the session cookie, forms with their CSRF token. */

export const DESK_ORIGIN = BASE_URL;

export async function inviteDeskUser(
  vendorId: number,
  role: "admin" | "desk" = "admin",
  email = `desk-${crypto.randomUUID().slice(0, 8)}@vendor.example`,
) {
  const res = await call(await operatorTokenFor(), `/admin/api/vendors/${vendorId}/desk-users`, {
    method: "POST",
    json: { email, displayName: "Dana Reyes", role },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json(res)).data as { userId: number; invitationUrl: string; expiresAt: string; email: string };
}

/** A desk request: the session's cookie when given; a POST with the desk's Origin unless told otherwise (null: none). */
export const desk = (path: string, init: RequestInit & { json?: unknown; cookie?: string; origin?: string | null } = {}) => {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set("Cookie", `${SESSION_COOKIE}=${init.cookie}`);
  if (init.origin !== null && (init.method ?? "GET") === "POST") headers.set("Origin", init.origin ?? DESK_ORIGIN);
  return call(null, path, { ...init, headers, redirect: "manual" });
};

/** A form post of the desk: urlencoded fields. */
export const deskForm = (path: string, cookie: string, fields: Record<string, string>, origin?: string | null) =>
  desk(path, {
    method: "POST",
    cookie,
    body: new URLSearchParams(fields).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    ...(origin === undefined ? {} : { origin }),
  });

export const sessionOf = (res: Response) => {
  const cookie = res.headers.get("Set-Cookie") ?? "";
  const match = new RegExp(`^${SESSION_COOKIE}=([A-Za-z0-9_-]{43});`).exec(cookie);
  return { id: match?.[1], cookie };
};

export async function registerPasskey(invitationUrl: string, authenticator: SoftwareAuthenticator) {
  const token = invitationUrl.split("/").pop()!;
  const options = await json(await desk("/desk/passkeys/registration-options", { method: "POST", json: { token } }));
  const response = await authenticator.register(options, DESK_ORIGIN);
  return desk("/desk/passkeys/registration", { method: "POST", json: { token, response } });
}

export async function signInWith(authenticator: SoftwareAuthenticator) {
  const options = await json(await desk("/desk/passkeys/authentication-options", { method: "POST", json: {} }));
  return desk("/desk/passkeys/authentication", {
    method: "POST",
    json: { response: await authenticator.authenticate(options, DESK_ORIGIN) },
  });
}

/** A vendor's desk user, invited, registered and signed in: its session id. */
export async function deskSession(vendorId: number, role: "admin" | "desk" = "desk"): Promise<{ session: string; userId: number }> {
  const invited = await inviteDeskUser(vendorId, role);
  const registered = await registerPasskey(invited.invitationUrl, await SoftwareAuthenticator.create());
  expect(registered.status, await registered.clone().text()).toBe(200);
  return { session: sessionOf(registered).id!, userId: invited.userId };
}

/** The CSRF token a desk page's forms carry. */
export const csrfOf = async (res: Response) => /name="_csrf" value="([^"]+)"/.exec(await res.text())?.[1];
