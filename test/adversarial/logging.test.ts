import { afterEach, describe, expect, it, vi } from "vitest";
import { call, json, newClient, requestToken, TENANT_A } from "../helpers/api";
import { issueQuote, lineFor, orderBody, placeOrder, withoutFields } from "../helpers/orders";

/** The structured log lines (src/platform/logging.ts) never carry secrets, tokens or request bodies. */
describe("logging: no secrets", () => {
  afterEach(() => vi.restoreAllMocks());

  it("token requests, authenticated calls, failures and an order log metadata only", async () => {
    const lines: string[] = [];
    for (const method of ["log", "info", "warn", "error"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
    }
    const creds = await newClient(TENANT_A);
    const token = (await json(await requestToken(creds))).access_token as string;
    await requestToken({ ...creds, clientSecret: `${creds.clientSecret}-wrong` });
    await call(token, "/users/lookup?userId=1");
    await call(`${token}x`, "/users/lookup?userId=1");
    const poNumber = "PO-SECRET-LOGCHECK-1";
    const quote = await issueQuote("MP-0000077", undefined, withoutFields);
    expect((await placeOrder(orderBody([lineFor(quote)], undefined, { poNumber, notes: "notes-secret-logcheck" }), { token })).status).toBe(
      201,
    );
    await call(token, "/orders", {
      method: "POST",
      body: '{"poNumber":"PO-SECRET-LOGCHECK-2",',
      headers: { "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
    });

    expect(lines.length, "the spy must see the request log lines").toBeGreaterThan(5);
    const log = lines.join("\n");
    expect(log).toContain(creds.clientId); // who called is logged...
    for (const secret of [
      creds.clientSecret,
      token,
      token.split(".")[2]!,
      poNumber,
      "PO-SECRET-LOGCHECK-2",
      "notes-secret-logcheck",
      "Bearer",
      "john.smith",
    ]) {
      expect(log.includes(secret), `log contains ${secret.slice(0, 20)}`).toBe(false); // ...but never what they sent or received
    }
  });
});
