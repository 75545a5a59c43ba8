import { describe, expect, it } from "vitest";
import { baseUrlOf, describeFailure, UsageError, UserError } from "../../scripts/cli";

const STACK_LINE = /^\s+at .+[:(]/m;

describe("scripts/cli.ts", () => {
  it("reads the API's URL from --url, else MEDPARTS_URL, else PORT, without a trailing slash", () => {
    const saved = { url: process.env.MEDPARTS_URL, port: process.env.PORT };
    try {
      delete process.env.MEDPARTS_URL;
      delete process.env.PORT;
      expect(baseUrlOf()).toBe("http://localhost:8787");
      process.env.PORT = "9000";
      expect(baseUrlOf()).toBe("http://localhost:9000");
      process.env.MEDPARTS_URL = "https://api.example.com/";
      expect(baseUrlOf()).toBe("https://api.example.com");
      expect(baseUrlOf("http://127.0.0.1:8800//")).toBe("http://127.0.0.1:8800");
      expect(() => baseUrlOf("localhost:8787")).toThrow(UsageError);
    } finally {
      if (saved.url === undefined) delete process.env.MEDPARTS_URL;
      else process.env.MEDPARTS_URL = saved.url;
      if (saved.port === undefined) delete process.env.PORT;
      else process.env.PORT = saved.port;
    }
  });

  it("says a user's mistake in one line, and shows the stack of a bug only with DEBUG", () => {
    expect(describeFailure(new UsageError("--mode is one of upsert, replace."), "usage: npm run x -- [options]\nmore")).toEqual({
      message: "--mode is one of upsert, replace.\nusage: npm run x -- [options]  (--help for more)",
      code: 2,
    });
    expect(describeFailure(new UserError("There is no tenant 99: the local database has 1, 2."), "usage")).toEqual({
      message: "There is no tenant 99: the local database has 1, 2.",
      code: 1,
    });
    const bug = describeFailure(new Error("boom"), "usage");
    expect(bug.message).not.toMatch(STACK_LINE);
    expect(bug.code).toBe(1);
  });
});
