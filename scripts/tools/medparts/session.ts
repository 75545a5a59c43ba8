import { existsSync, readFileSync } from "node:fs";
import { requestInit } from "../../../src/dev/client/request";
import { UsageError, UserError } from "../../cli";

/** The latest API version: the CLI reads answers in today's forms (decimal strings, one error form). */
export const CLI_VERSION = "2026-12-07";

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

interface DemoFile extends Credentials {
  vendor?: Credentials;
  testMode?: Credentials;
}

/** Whose credentials a command uses: the options', else the environment's, else a demo client of `npm start`. */
export function credentialsOf(
  given: { "client-id"?: string | undefined; "client-secret"?: string | undefined },
  demo: "testMode" | "live" | "vendor",
): Credentials {
  if ((given["client-id"] === undefined) !== (given["client-secret"] === undefined)) {
    throw new UsageError("--client-id and --client-secret go together.");
  }
  const clientId = given["client-id"] ?? process.env.MEDPARTS_CLIENT_ID;
  const clientSecret = given["client-secret"] ?? process.env.MEDPARTS_CLIENT_SECRET;
  if (clientId && clientSecret) return { clientId, clientSecret };
  if (!existsSync(".medparts-demo.json")) {
    throw new UserError("No credentials: run `npm start` first (it writes .medparts-demo.json), or pass --client-id and --client-secret.");
  }
  const file = JSON.parse(readFileSync(".medparts-demo.json", "utf8")) as DemoFile;
  const chosen = demo === "live" ? file : file[demo];
  if (!chosen) throw new UserError(`.medparts-demo.json has no ${demo} client: run \`npm start\` once to make it.`);
  return { clientId: chosen.clientId, clientSecret: chosen.clientSecret };
}

/** A client's calls to the API: its token, the CLI's version, JSON in and out; anything but a 2xx is an error naming it. */
export class Session {
  private token: string | undefined;

  constructor(
    readonly baseUrl: string,
    private readonly credentials: Credentials,
  ) {}

  get clientId(): string {
    return this.credentials.clientId;
  }

  /** The session's access token, asked for once. */
  async accessToken(): Promise<string> {
    this.token ??= await this.newToken();
    return this.token;
  }

  async call<T>(method: string, path: string, init: { json?: unknown; idempotent?: boolean } = {}): Promise<T> {
    const headers: Record<string, string> = { "Medparts-Version": CLI_VERSION };
    if (init.idempotent) headers["Idempotency-Key"] = crypto.randomUUID();
    const send = async () =>
      fetch(`${this.baseUrl}${path}`, requestInit(method, { token: await this.accessToken(), json: init.json, headers }));
    let res = await send();
    // A token past its hour (a `logs tail` left running): a new one, once.
    if (res.status === 401) {
      this.token = undefined;
      res = await send();
    }
    const text = await res.text();
    if (!res.ok) throw new UserError(`${method} ${path}: HTTP ${res.status} ${text.slice(0, 500)}`);
    return (text ? (JSON.parse(text) as { data: T }).data : undefined) as T;
  }

  private async newToken(): Promise<string> {
    const form = { grant_type: "client_credentials", client_id: this.credentials.clientId, client_secret: this.credentials.clientSecret };
    let res = await fetch(`${this.baseUrl}/auth/oauth2/token`, requestInit("POST", { form }));
    // The token endpoint's per-client limit (a listener asked for one a moment ago): wait as it says, a few times.
    for (let retry = 0; res.status === 429 && retry < 3; retry++) {
      await new Promise((resolve) => setTimeout(resolve, 1000 * Number(res.headers.get("Retry-After") ?? 1)));
      res = await fetch(`${this.baseUrl}/auth/oauth2/token`, requestInit("POST", { form }));
    }
    const body = (await res.json()) as { access_token?: string; error_description?: string };
    if (!res.ok || !body.access_token) {
      throw new UserError(`The token endpoint refused ${this.credentials.clientId}: ${body.error_description ?? res.status}`);
    }
    return body.access_token;
  }
}
