import { describe, expect, it } from "vitest";
import {
  closingLine,
  gudidFilesOf,
  inferFormat,
  isRetryable,
  jobProgressLine,
  parseImportArgs,
  planParts,
  SINGLE_UPLOAD_MAX_BYTES,
  uploadNameOf,
} from "../../scripts/tools/import-client";

const MiB = 1024 * 1024;

describe("npm run import: the format of a path", () => {
  it("is ndjson for .ndjson and .jsonl, csv for .csv, whatever their case", () => {
    expect(inferFormat("catalog.ndjson", false)).toBe("ndjson");
    expect(inferFormat("exports/2026-11/catalog.jsonl", false)).toBe("ndjson");
    expect(inferFormat("C:\\exports\\Catalog.CSV", false)).toBe("csv");
  });

  it("strips a .gz suffix first (the file is uploaded gzipped as it is)", () => {
    expect(inferFormat("catalog.ndjson.gz", false)).toBe("ndjson");
    expect(inferFormat("catalog.jsonl.GZ", false)).toBe("ndjson");
    expect(inferFormat("catalog.csv.gz", false)).toBe("csv");
  });

  it("is gudid for a folder, whatever its name", () => {
    expect(inferFormat("AccessGUDID_Delimited_Full_Release_20261101/", true)).toBe("gudid");
    expect(inferFormat("release.csv", true)).toBe("gudid");
  });

  it("is unknown for anything else, so the command asks for --format", () => {
    expect(inferFormat("catalog.json", false)).toBeNull();
    expect(inferFormat("catalog.gz", false)).toBeNull();
    expect(inferFormat("catalog.csv.zip", false)).toBeNull();
    expect(inferFormat("csv", false)).toBeNull();
  });
});

describe("npm run import: the files it uploads", () => {
  it("names a file by its base name, within the characters the server takes", () => {
    expect(uploadNameOf("/data/catalog.ndjson.gz")).toBe("catalog.ndjson.gz");
    expect(uploadNameOf("./exports/my catalog (1).csv")).toBe("my_catalog__1_.csv");
    expect(uploadNameOf(".hidden.csv")).toBe("hidden.csv");
    expect(uploadNameOf(`${"a".repeat(120)}.csv`)).toHaveLength(100);
  });

  it("takes the GUDID release files a folder holds, plain or gzipped, under their release names; device.txt is required", () => {
    expect(gudidFilesOf(["device.txt", "gmdnTerms.txt.gz", "contacts.txt", "sterilizationMethodTypes.txt"])).toEqual([
      { name: "device.txt", entry: "device.txt" },
      { name: "gmdnTerms.txt", entry: "gmdnTerms.txt.gz" },
    ]);
    expect(gudidFilesOf(["identifiers.txt", "productCodes.txt"])).toEqual({ usageError: expect.stringContaining("No device.txt") });
    expect(gudidFilesOf(["device.txt", "device.txt.gz"])).toEqual({
      usageError: expect.stringContaining("Both device.txt and device.txt.gz"),
    });
  });

  it("sends files up to 50 MiB in one request", () => {
    expect(SINGLE_UPLOAD_MAX_BYTES).toBe(50 * MiB);
  });
});

describe("npm run import: multipart parts", () => {
  it("cuts a file into parts of the server's part size, numbered from 1, the last one shorter", () => {
    expect(planParts(40 * MiB, 16 * MiB)).toEqual([
      { partNumber: 1, offset: 0, size: 16 * MiB },
      { partNumber: 2, offset: 16 * MiB, size: 16 * MiB },
      { partNumber: 3, offset: 32 * MiB, size: 8 * MiB },
    ]);
  });

  it("has no short last part when the size is a multiple of the part size, and one part for a file smaller than a part", () => {
    expect(planParts(32 * MiB, 16 * MiB).map((part) => part.size)).toEqual([16 * MiB, 16 * MiB]);
    expect(planParts(5, 16 * MiB)).toEqual([{ partNumber: 1, offset: 0, size: 5 }]);
    expect(planParts(16 * MiB + 1, 16 * MiB).at(-1)).toEqual({ partNumber: 2, offset: 16 * MiB, size: 1 });
  });

  it("covers every byte once, in order", () => {
    for (const [size, partSize] of [
      [1, 1],
      [1000, 7],
      [51 * MiB + 3, 16 * MiB],
      [3 * 1024 ** 3, 16 * MiB],
    ] as const) {
      const parts = planParts(size, partSize);
      expect(parts.length).toBe(Math.ceil(size / partSize));
      expect(parts.reduce((sum, part) => sum + part.size, 0)).toBe(size);
      parts.forEach((part, i) => {
        expect(part.partNumber).toBe(i + 1);
        expect(part.offset).toBe(i * partSize);
        if (i < parts.length - 1) expect(part.size).toBe(partSize);
      });
    }
  });

  it("resumes: skips the parts the server holds at their full size, sends again one it holds short", () => {
    const received = [
      { partNumber: 1, size: 16 * MiB },
      { partNumber: 2, size: 3 * MiB }, // cut off
      { partNumber: 4, size: 4 * MiB }, // the last part, complete
    ];
    expect(planParts(52 * MiB, 16 * MiB, received)).toEqual([
      { partNumber: 2, offset: 16 * MiB, size: 16 * MiB },
      { partNumber: 3, offset: 32 * MiB, size: 16 * MiB },
    ]);
    expect(planParts(52 * MiB, 16 * MiB, planParts(52 * MiB, 16 * MiB))).toEqual([]);
  });

  it("ignores parts the server holds beyond the file's end, and refuses a part size that is not a positive whole number", () => {
    expect(planParts(20 * MiB, 16 * MiB, [{ partNumber: 7, size: 16 * MiB }]).map((part) => part.partNumber)).toEqual([1, 2]);
    expect(() => planParts(20 * MiB, 0)).toThrow(/part size/);
    expect(() => planParts(20 * MiB, 1.5)).toThrow(/part size/);
  });

  it("retries a part that got no answer, a timeout, a rate limit or a server error, not a refusal", () => {
    expect([undefined, 408, 429, 500, 503].map(isRetryable)).toEqual([true, true, true, true, true]);
    expect([400, 401, 403, 404, 409, 411, 413].map(isRetryable)).toEqual([false, false, false, false, false, false, false]);
  });
});

describe("npm run import: its command line", () => {
  it("defaults to upsert, reject-all, the local server and the demo credentials", () => {
    expect(parseImportArgs(["catalog.csv"])).toEqual({
      path: "catalog.csv",
      offers: false,
      format: undefined,
      mode: "upsert",
      dryRun: false,
      skipFailedRows: false,
      maxErrors: undefined,
      maxWithdrawPercent: undefined,
      url: "http://localhost:8787",
      credentials: undefined,
    });
  });

  it("reads every option", () => {
    const args = "release --format gudid --mode replace --dry-run --skip-failed-rows --max-errors 50 --max-withdraw-percent 5";
    expect(
      parseImportArgs([...args.split(" "), "--url", "https://api.example.com/", "--client-id", "mpo_1", "--client-secret", "s"]),
    ).toEqual({
      path: "release",
      offers: false,
      format: "gudid",
      mode: "replace",
      dryRun: true,
      skipFailedRows: true,
      maxErrors: 50,
      maxWithdrawPercent: 5,
      url: "https://api.example.com",
      credentials: { clientId: "mpo_1", clientSecret: "s" },
    });
  });

  it("--offers: a vendor's price file, upsert", () => {
    expect(parseImportArgs(["prices.csv", "--offers", "--dry-run"])).toMatchObject({
      path: "prices.csv",
      offers: true,
      mode: "upsert",
      dryRun: true,
    });
  });

  it("answers a usage error for what it cannot use", () => {
    for (const args of [
      [],
      ["a.csv", "b.csv"],
      ["a.csv", "--format", "xml"],
      ["a.csv", "--mode", "merge"],
      ["a.csv", "--max-errors", "ten"],
      ["a.csv", "--max-errors", "1.5"],
      ["a.csv", "--max-withdraw-percent", "101"],
      ["a.csv", "--client-id", "mpo_1"],
      ["a.csv", "--url", "localhost:8787"],
      ["a.csv", "--unknown"],
      ["a.csv", "--offers", "--mode", "replace"],
      ["release", "--offers", "--format", "gudid"],
    ]) {
      expect(parseImportArgs(args)).toEqual({ usageError: expect.stringMatching(/\w/) });
    }
  });
});

describe("npm run import: progress lines", () => {
  const progress = {
    fraction: 0.5,
    rowsPerSecond: 5000,
    secondsLeft: 20,
    bytesTotal: 100,
    bytesDone: 50,
    rowsRead: 100_000,
    rowsToApply: 100_000,
    rowsApplied: 50_000,
  };

  it("shows rows, rate and time left while validating and applying, the upkeep as a phase of its own, nothing before", () => {
    expect(jobProgressLine({ ...progress, phase: "validating" })).toEqual({
      phase: "validating",
      fraction: 0.5,
      done: "100,000 rows read",
      rate: "5,000 rows/s",
      left: "20s left",
    });
    expect(jobProgressLine({ ...progress, phase: "applying" })).toMatchObject({ done: "50,000 / 100,000 rows" });
    expect(jobProgressLine({ ...progress, phase: "upkeep" })).toMatchObject({ phase: "upkeep", fraction: 1, left: "" });
    expect(jobProgressLine({ ...progress, phase: "upload" })).toBeNull();
  });

  it("closes the upkeep as it was shown: it has no rows to recount", () => {
    const upkeep = jobProgressLine({ ...progress, phase: "upkeep" })!;
    expect(closingLine(upkeep, { progress: { ...progress, phase: "done" } } as Parameters<typeof closingLine>[1])).toEqual(upkeep);
  });
});
