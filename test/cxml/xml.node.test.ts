import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readXml, XML_LIMITS, XmlRefused } from "../../src/operator/procurement/xml";

/**
 * The hardened cXML reader against the shared test data, read in place (../shared/test-data/cxml, see its README): every
 * hostile document is refused quickly with a reason, or read without any fetch (an unreachable DTD); every public sample
 * that is well-formed XML reads, even where it breaks its DTD, as real suites' documents do; the malformed ones are
 * refused.
 */

const CXML = path.join(import.meta.dirname, "../../../shared/test-data/cxml");
const hostile = (file: string) => new Uint8Array(readFileSync(path.join(CXML, "hostile", file)));

function refusal(bytes: Uint8Array): XmlRefused {
  // The process's CPU time, not the wall clock: a machine busy with other work must not fail a bound on our own work.
  const started = process.cpuUsage();
  try {
    readXml(bytes);
  } catch (error) {
    const { user, system } = process.cpuUsage(started);
    expect((user + system) / 1000, "refused within the 1 s hostile.json allows").toBeLessThan(1000);
    expect(error).toBeInstanceOf(XmlRefused);
    return error as XmlRefused;
  }
  throw new Error("read, not refused");
}

describe("the cXML reader against hostile documents", () => {
  it("refuses entity expansion (billion laughs, quadratic blowup), external entities and parameter entities: no DTD is read", () => {
    for (const file of ["01-billion-laughs.xml", "02-quadratic-blowup.xml", "03-xxe-file-passwd.xml", "05-parameter-entity.xml"]) {
      const error = refusal(hostile(file));
      expect(error.message, file).toMatch(/internal subset|undefined entity/);
      expect(error.message, file).not.toMatch(/root:|\/bin\//);
    }
  });

  it("refuses an undeclared entity that an external DTD would declare, without fetching it", () => {
    expect(refusal(hostile("04-external-dtd-http.xml")).message).toMatch(/undefined entity|internal subset/);
  });

  it("refuses nesting past its depth, naming the path", () => {
    const error = refusal(hostile("06-deep-nesting-10000.xml"));
    expect(error.message).toContain(`nesting deeper than ${XML_LIMITS.depth}`);
    expect(error.path.split("/").length - 1).toBe(XML_LIMITS.depth);
  });

  it("refuses UTF-16 and bytes that are not UTF-8", () => {
    expect(refusal(hostile("08-utf16-bom.xml")).message).toContain("UTF-16");
    expect(refusal(hostile("09-invalid-utf8.xml")).message).toContain("not valid UTF-8");
  });

  it("refuses a 20 MiB document by its size before reading it, and a 20 MiB text by the element's limit", () => {
    const big = new Uint8Array(20 * 1024 * 1024).fill(0x20);
    const error = refusal(big);
    expect(error.tooLarge).toBe(true);
    const cookie = `<cXML><Request><PunchOutSetupRequest><BuyerCookie>${"x".repeat(XML_LIMITS.textBytes + 1)}</BuyerCookie></PunchOutSetupRequest></Request></cXML>`;
    expect(refusal(new TextEncoder().encode(cookie)).path).toBe("/cXML/Request/PunchOutSetupRequest/BuyerCookie");
  });

  it("reads a document whose DTD is unreachable: the DTD is never fetched", () => {
    const root = readXml(hostile("10-unreachable-dtd.xml"));
    expect(root.name).toBe("cXML");
  });
});

describe("the cXML reader against the public samples", () => {
  const samples = (
    JSON.parse(readFileSync(path.join(CXML, "samples.json"), "utf8")) as { samples: { file: string; firstError1_2_063?: string }[] }
  ).samples;
  /** Not well-formed XML (samples.json: libxml2's parser errors), as opposed to XML that breaks its DTD. */
  const malformed = (sample: { firstError1_2_063?: string }) =>
    /attributes construct error|expected '>'/.test(sample.firstError1_2_063 ?? "");

  it("reads every well-formed sample, DTD-valid or not, with XML's entities and character references decoded", () => {
    const readable = samples.filter((s) => !malformed(s));
    expect(readable.length).toBeGreaterThan(60);
    for (const sample of readable) {
      const root = readXml(new Uint8Array(readFileSync(path.join(CXML, sample.file))));
      // A cXML document, or a catalog Index (cXML's other DTD root).
      expect(["cxml", "index"], sample.file).toContain(root.name.toLowerCase());
    }
  });

  it("refuses the malformed ones, saying where", () => {
    const bad = samples.filter(malformed);
    expect(bad.length).toBe(2);
    for (const sample of bad)
      expect(() => readXml(new Uint8Array(readFileSync(path.join(CXML, sample.file)))), sample.file).toThrow(XmlRefused);
  });

  it("decodes the predefined entities and character references, and keeps attributes", () => {
    const root = readXml(
      new TextEncoder().encode(
        '<?xml version="1.0"?><!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.063/cXML.dtd"><cXML payloadID="1@x"><Note>Bolts &amp; nuts &lt;M8&gt; caf&#233; &#x20AC;5</Note></cXML>',
      ),
    );
    expect(root.attributes).toEqual({ payloadID: "1@x" });
    expect(root.children[0]!.text).toBe("Bolts & nuts <M8> café €5");
  });

  it("has no files in the test data it does not know of", () => {
    const listed = new Set(samples.map((s) => s.file));
    const onDisk = readdirSync(path.join(CXML, "samples"), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".xml"))
      .map((entry) => path.relative(CXML, path.join(entry.parentPath, entry.name)));
    for (const file of onDisk) expect(listed.has(file), file).toBe(true);
  });
});
