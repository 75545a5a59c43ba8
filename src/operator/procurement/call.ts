import type { Context } from "hono";
import type { AppEnv } from "../../env";
import type { Connection } from "./connections";
import type { CxmlStatusCode, Markup } from "./cxml";
import type { XmlElement } from "./xml";

/** What a handler answers: a Status code, its text for a person, and on success the response element. */
export interface Outcome {
  code: CxmlStatusCode;
  detail?: string;
  body?: Markup;
}

/** The request as a handler receives it: the connection it authenticated as and the token that acts for it. */
export interface CxmlCall {
  c: Context<AppEnv>;
  connection: Connection;
  token: string;
  tokenExpiresAt: number;
  request: XmlElement;
  /** The Request's one child: ProfileRequest, PunchOutSetupRequest, OrderRequest. */
  message: XmlElement;
  payloadId: string;
}

export const refused = (code: CxmlStatusCode, detail: string): Outcome => ({ code, detail });
