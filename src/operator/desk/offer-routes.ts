import type { Context } from "hono";
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { ediOf } from "../edi/bindings";
import { FINAL_STATES } from "../imports/jobs";
import { auditDeskAction, formFields, signedInForm } from "./forms";
import { offerPage, offersListPage, priceFilePage, priceFilesPage } from "./offer-pages";
import {
  DESK_PRICE_FILE_MAX_BYTES,
  editedOffer,
  offerOf,
  offersPage,
  PRICE_FILES_PATH,
  priceFileFormat,
  priceFileJob,
  priceFileOptions,
  publishOffer,
  recentPriceFiles,
  rowErrors,
  startPriceFile,
  withdrawOffer,
} from "./offers";
import { forbiddenPage, notFoundPage } from "./pages";
import type { DeskSession } from "./sessions";
import { deskApi } from "./vendor-work";

/**
 * The desk's offers and price files (docs/desk.md, "Offers and price files"): a vendor's admins only (a desk user gets
 * 403), through the vendor API's publishing routes. Mounted in routes.ts under its middleware.
 */

const SKU = "[A-Za-z0-9][A-Za-z0-9._-]{0,63}";
const JOB = "imp_[A-Za-z0-9]{20}";
const MEGABYTES = DESK_PRICE_FILE_MAX_BYTES / 1024 / 1024;

/** The signed-in admin of a page, or the answer that sends anyone else away. */
async function adminOf(c: Context<AppEnv>): Promise<DeskSession | Response> {
  const session = c.get("deskSession");
  if (!session) return c.redirect("/desk/sign-in", 303);
  return session.role === "admin" ? session : c.html(forbiddenPage(session, "offers and price files"), 403);
}

async function adminForm(c: Context<AppEnv>): Promise<DeskSession | Response> {
  const session = await signedInForm(c);
  if (session instanceof Response) return session;
  return session.role === "admin" ? session : c.html(forbiddenPage(session, "offers and price files"), 403);
}

export const deskOfferRoutes = new Hono<AppEnv>()
  .get("/offers", async (c) => {
    const session = await adminOf(c);
    if (session instanceof Response) return session;
    const q = (c.req.query("q") ?? "").trim().slice(0, 500);
    const page = Math.min(Math.max(0, Number.parseInt(c.req.query("page") ?? "0", 10) || 0), 10_000);
    const listed = await offersPage(await deskApi(ediOf(c.env), session.userId), q, page);
    return c.html(offersListPage(session, { ...listed, q, page }), listed.error ? 400 : 200);
  })
  .get(`/offers/:sku{${SKU}}`, async (c) => {
    const session = await adminOf(c);
    if (session instanceof Response) return session;
    const offer = await offerOf(await deskApi(ediOf(c.env), session.userId), c.req.param("sku"));
    if (!offer) return c.html(notFoundPage(session, "offer"), 404);
    const done = c.req.query("done");
    const message =
      done === "saved"
        ? { text: "Done: the offer is published.", error: false }
        : done === "withdrawn"
          ? { text: "Done: the offer is withdrawn.", error: false }
          : null;
    return c.html(offerPage(session, offer, message));
  })
  .post(`/offers/:sku{${SKU}}`, async (c) => {
    const session = await adminForm(c);
    if (session instanceof Response) return session;
    const sku = c.req.param("sku");
    const api = await deskApi(ediOf(c.env), session.userId);
    const offer = await offerOf(api, sku);
    if (!offer) return c.html(notFoundPage(session, "offer"), 404);
    const edited = editedOffer(offer, await formFields(c));
    if (edited.errors.length > 0)
      return c.html(offerPage(session, offer, { text: `Not saved: ${edited.errors.join(" ")}`, error: true }), 422);
    const published = await publishOffer(api, sku, edited.input);
    if (!published.ok) {
      return c.html(
        offerPage(session, offer, { text: `Not saved: ${published.detail ?? `the vendor API answered ${published.status}`}`, error: true }),
        422,
      );
    }
    await auditDeskAction(c.env.DB, session, "desk_user.offer_published", { sku, ...edited.input });
    return c.redirect(`/desk/offers/${encodeURIComponent(sku)}?done=saved`, 303);
  })
  .post(`/offers/:sku{${SKU}}/withdraw`, async (c) => {
    const session = await adminForm(c);
    if (session instanceof Response) return session;
    const sku = c.req.param("sku");
    const api = await deskApi(ediOf(c.env), session.userId);
    const withdrawn = await withdrawOffer(api, sku);
    if (withdrawn.status === 404) return c.html(notFoundPage(session, "offer"), 404);
    if (!withdrawn.ok) {
      const offer = await offerOf(api, sku);
      if (!offer) return c.html(notFoundPage(session, "offer"), 404);
      return c.html(offerPage(session, offer, { text: `Not withdrawn: ${withdrawn.detail ?? withdrawn.status}`, error: true }), 422);
    }
    await auditDeskAction(c.env.DB, session, "desk_user.offer_withdrawn", { sku });
    return c.redirect(`/desk/offers/${encodeURIComponent(sku)}?done=withdrawn`, 303);
  })
  .get("/price-files", async (c) => {
    const session = await adminOf(c);
    if (session instanceof Response) return session;
    return c.html(priceFilesPage(session, await recentPriceFiles(await deskApi(ediOf(c.env), session.userId)), null, MEGABYTES));
  })
  .post("/price-files", async (c) => {
    // The form's size is checked before its body is read: the desk buffers at most DESK_PRICE_FILE_MAX_BYTES.
    const declared = Number(c.req.header("Content-Length") ?? Number.NaN);
    const session = c.get("deskSession");
    if (session && !(declared <= DESK_PRICE_FILE_MAX_BYTES + 64 * 1024)) {
      const jobs = session.role === "admin" ? await recentPriceFiles(await deskApi(ediOf(c.env), session.userId)) : [];
      const text = `Not uploaded: the file is larger than ${MEGABYTES} MB (or its size was not sent). Upload larger files with the vendor API's multipart upload.`;
      return c.html(priceFilesPage(session, jobs, { text, error: true }, MEGABYTES), 413);
    }
    const admin = await adminForm(c);
    if (admin instanceof Response) return admin;
    const api = await deskApi(ediOf(c.env), admin.userId);
    const form = await c.req.parseBody();
    const file = form.file;
    const refuse = async (text: string) =>
      c.html(priceFilesPage(admin, await recentPriceFiles(api), { text: `Not uploaded: ${text}`, error: true }, MEGABYTES), 422);
    if (!(file instanceof File) || file.size === 0) return refuse("choose a file.");
    const format = priceFileFormat(file.name);
    if (!format) return refuse("the file must end in .csv, .ndjson or .jsonl (optionally .gz).");
    const field = await formFields(c);
    const options = { format, ...priceFileOptions(field) };
    const started = await startPriceFile(api, { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) }, options);
    if (!started.jobId || started.detail) return refuse(started.detail ?? "the vendor API refused it.");
    await auditDeskAction(c.env.DB, admin, "desk_user.price_file_started", { jobId: started.jobId, file: file.name, ...options });
    return c.redirect(`${PRICE_FILES_PATH}/${started.jobId}`, 303);
  })
  .get(`/price-files/:jobId{${JOB}}`, async (c) => {
    const session = await adminOf(c);
    if (session instanceof Response) return session;
    const api = await deskApi(ediOf(c.env), session.userId);
    const job = await priceFileJob(api, c.req.param("jobId"));
    if (!job) return c.html(notFoundPage(session, "price file"), 404);
    const errors = job.counts.rejected > 0 || FINAL_STATES.includes(job.state) ? await rowErrors(api, job.id) : [];
    return c.html(priceFilePage(session, job, errors));
  })
  .get(`/price-files/:jobId{${JOB}}/progress`, async (c) => {
    const session = c.get("deskSession");
    if (session?.role !== "admin") return c.json({ title: "Unauthorized", status: 401, detail: "Sign in again as an admin." }, 401);
    const job = await priceFileJob(await deskApi(ediOf(c.env), session.userId), c.req.param("jobId"));
    if (!job) return c.json({ title: "Not Found", status: 404, detail: "Your vendor has no such price file." }, 404);
    return c.json({ state: job.state, done: FINAL_STATES.includes(job.state), progress: job.progress, counts: job.counts });
  });
