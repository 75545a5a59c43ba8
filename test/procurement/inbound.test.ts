/// <reference types="vite/client" />
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import hostileManifest from "../../../shared/test-data/cxml/hostile/hostile.json";
import { forgetConnections } from "../../src/operator/procurement/gateway";
import { readXml, XML_LIMITS } from "../../src/operator/procurement/xml";
import { dispatch } from "../helpers/dispatch";
import { JSMITH } from "../helpers/orders";
import { CXML_URL, connect, find, postCxml, SUPPLIER } from "../helpers/procurement";

/**
 * What procurement suites really send (../shared/test-data/cxml, read in place): every public sample of a kind Medparts
 * receives is read, then mapped or refused with a named reason; every hostile document gets what hostile.json says.
 */

const samples = import.meta.glob<string>(
  "../../../shared/test-data/cxml/samples/{ProfileRequest,PunchOutSetupRequest,OrderRequest}/*.xml",
  {
    query: "?raw",
    import: "default",
    eager: true,
  },
);
const hostile = import.meta.glob<string>("../../../shared/test-data/cxml/hostile/*.xml", { query: "?raw", import: "default", eager: true });
interface HostileExpectation {
  file?: string;
  generator?: string;
  generatorArgs?: string[];
  expect: { outcome: string; cxmlStatus: number | number[]; noEcho?: string[] };
}

/** The sample's own credentials made into a connection (no other connection holds them), and its secrets replaced. */
async function asConnectionOf(sample: string) {
  const root = readXml(new TextEncoder().encode(sample));
  const credentials = (party: string) =>
    (find(root, "Header", party)?.children ?? [])
      .filter((child) => child.name === "Credential")
      .map((credential) => ({ domain: credential.attributes.domain ?? "", identity: find(credential, "Identity")?.text.trim() ?? "" }))
      .filter((credential) => credential.domain && credential.identity);
  const buyers = [...credentials("From"), ...credentials("Sender")].filter(
    (credential, i, all) =>
      all.findIndex(
        (other) =>
          other.domain.toLowerCase() === credential.domain.toLowerCase() &&
          other.identity.toLowerCase() === credential.identity.toLowerCase(),
      ) === i,
  );
  const supplier = credentials("To")[0] ?? SUPPLIER;
  const mode = find(root, "Request")?.attributes.deploymentMode === "test" ? "test" : "live";
  if (buyers.length === 0) return null;
  await env.DB.prepare("DELETE FROM procurement_identities").run();
  forgetConnections();
  const connection = await connect(JSMITH, {
    mode,
    buyer: buyers[0]!,
    extra: { buyerIdentities: buyers.slice(0, 10), supplierIdentity: supplier },
  });
  const secret = `<SharedSecret>${connection.secret}</SharedSecret>`;
  // A sample without a SharedSecret (a builder's output before the secret is set) gets one in its Sender credential.
  return /<SharedSecret>/.test(sample)
    ? sample.replace(/<SharedSecret>[\s\S]*?<\/SharedSecret>/g, secret)
    : sample.replace(/(<Sender>\s*<Credential[^>]*>\s*<Identity>[^<]*<\/Identity>)/, `$1${secret}`);
}

describe("public cXML samples of the kinds Medparts receives", () => {
  const entries = Object.entries(samples);

  it("finds the samples in place", () => {
    expect(entries.length).toBeGreaterThanOrEqual(20);
  });

  it.each(entries.map(([file, text]) => [file.split("/samples/")[1]!, text]))(
    "%s is read, then mapped or refused with a named reason",
    async (_file, text) => {
      const document = await asConnectionOf(text);
      const answer = await postCxml(document ?? text);
      expect(answer.http).toBe(200);
      // A sample whose credentials are left empty (a template) authenticates as nobody.
      if (document === null) return expect(answer.code, answer.text).toBe(401);
      expect([200, 400, 406], answer.text).toContain(answer.code);
      if (answer.code !== 200) expect(answer.text).toMatch(/\(at \/cXML|\/cXML\/Request\/\w+\/ItemOut\[\d+\]/);
    },
  );
});

describe("hostile documents (hostile.json)", () => {
  const manifest = (hostileManifest as { documents: HostileExpectation[] }).documents;
  const withCredentials = async (text: string) => {
    const buyer = { domain: "NetworkId", identity: `HOSTILE-${crypto.randomUUID().slice(0, 8)}` };
    const connection = await connect(JSMITH, { buyer });
    return text
      .replaceAll("MEDPARTS_BUYER_IDENTITY", buyer.identity)
      .replaceAll("MEDPARTS_SUPPLIER_IDENTITY", SUPPLIER.identity)
      .replaceAll("MEDPARTS_SHARED_SECRET", connection.secret);
  };

  it.each(
    manifest
      .filter((entry) => entry.file && entry.file !== "08-utf16-bom.xml" && entry.file !== "09-invalid-utf8.xml")
      .map((entry) => [entry.file!, entry]),
  )("%s gets what hostile.json says, and the next valid request is answered", async (file, entry) => {
    const text = hostile[`../../../shared/test-data/cxml/hostile/${file}`]!;
    const answer = await postCxml(await withCredentials(text));
    expect(answer.http).toBeLessThan(500);
    expect([entry.expect.cxmlStatus].flat()).toContain(answer.code);
    for (const echo of entry.expect.noEcho ?? []) expect(answer.body).not.toContain(echo);
    const next = await postCxml(await withCredentials(hostile["../../../shared/test-data/cxml/hostile/10-unreachable-dtd.xml"]!));
    expect(next.code).toBe(200);
  });

  // 08 and 09 are about bytes, which Vite's ?raw import decodes: the endpoint gets the same attacks built here from the
  // ProfileRequest of 10 (test/cxml/xml.node.test.ts reads the stored files' own bytes).
  it("UTF-16 is refused naming the encoding; invalid UTF-8 is refused", async () => {
    const profile = await withCredentials(hostile["../../../shared/test-data/cxml/hostile/10-unreachable-dtd.xml"]!);
    const utf16 = new Uint8Array(2 + profile.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < profile.length; i++) new DataView(utf16.buffer).setUint16(2 + i * 2, profile.charCodeAt(i), true);
    const answer16 = await postCxml(utf16);
    expect(answer16.code).toBe(400);
    expect(answer16.text).toContain("UTF-16");
    const [before, after] = profile.split("</Identity>");
    const invalid = new Uint8Array([
      ...new TextEncoder().encode(before),
      0x80,
      0xc0,
      0xaf,
      0xed,
      0xa0,
      0x80,
      0xff,
      ...new TextEncoder().encode(`</Identity>${after}`),
    ]);
    const answer8 = await postCxml(invalid);
    expect(answer8.code).toBe(400);
    expect(answer8.text).toContain("UTF-8");
  });

  it("a 20 MiB document, chunked or with its length, is HTTP 413 with a cXML Status 413, read no further than the limit", async () => {
    const chunk = new TextEncoder().encode(
      `<ItemOut quantity="1"><ItemID><SupplierPartID>X</SupplierPartID></ItemID></ItemOut>`.repeat(1000),
    );
    let pulled = 0;
    const stream = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('<?xml version="1.0"?><cXML><Request><OrderRequest>'));
        },
        pull(controller) {
          pulled += chunk.byteLength;
          if (pulled > 20 * 1024 * 1024) controller.close();
          else controller.enqueue(chunk);
        },
      });
    const chunked = await dispatch(CXML_URL, {
      method: "POST",
      headers: { "Content-Type": "text/xml" },
      body: stream(),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await chunked.text()).toContain('code="413"');
    expect(pulled).toBeLessThan(XML_LIMITS.bytes + 2 * chunk.byteLength);
    const declared = await dispatch(CXML_URL, {
      method: "POST",
      headers: { "Content-Type": "text/xml", "Content-Length": String(20 * 1024 * 1024) },
      body: "x",
    });
    expect(declared.status).toBe(413);
  });
});
