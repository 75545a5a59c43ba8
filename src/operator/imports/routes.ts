import { createRoute, z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../../env";
import { ProblemError } from "../../platform/errors";
import { ADMIN_API_BASE } from "../../platform/planes";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import {
  authenticatedErrorResponses,
  closedObject,
  envelopeResponse,
  notFoundResponse,
  problem,
  wholeNumberText,
} from "../../platform/schemas";
import { operatorScopedAccess } from "../../shared/auth/bearer";
import type { ImportBindings } from "./bindings";
import { ImportErrorSchema, importErrorsPage, streamImportErrors } from "./errors";
import { createInstance } from "./instances";
import {
  CATALOG_FORMATS,
  ERROR_POLICIES,
  FILE_NAME,
  type FileRow,
  IMPORT_MODES,
  type ImportFormat,
  JOB_STATES,
  type JobKind,
  type JobRow,
  presentJob,
  readJob,
  readJobWithFiles,
} from "./jobs";
import { isStalled, sweepImportJob } from "./sweep";
import {
  beginMultipart,
  completeMultipart,
  MAX_PARTS,
  MAX_SINGLE_UPLOAD_BYTES,
  PART_SIZE,
  partsOf,
  uploadPart,
  uploadWhole,
} from "./uploads";

/**
 * Import jobs as an API (docs/api.md, "Catalog import" and "Price files"): one set of routes per kind of job, made by
 * importJobRoutes. The operator's catalog jobs live at /admin/api/catalog/imports; a vendor's offer jobs at
 * /vendor/api/offer-imports, each vendor seeing its own only. Both kinds share the Workflow, uploads, progress and errors.
 */
export interface JobPlane {
  kind: JobKind;
  /** The collection's path under the plane's base, e.g. /catalog/imports. */
  path: string;
  base: string;
  tag: string;
  /** The OpenAPI name of the job, e.g. CatalogImport. */
  schemaName: string;
  access: { security: Record<string, string[]>[]; middleware: MiddlewareHandler<AppEnv>[] };
  formats: readonly [ImportFormat, ...ImportFormat[]];
  modes: readonly [(typeof IMPORT_MODES)[number], ...(typeof IMPORT_MODES)[number][]];
  formatDescription: string;
  /** The caller: its client, and the vendor it acts for (offer jobs) or null (catalog jobs). */
  caller: (c: Context<AppEnv>) => { clientId: string; vendorId: number | null };
}

type ImportContext = Context<AppEnv & { Bindings: ImportBindings }>;
const bindings = (c: Context<AppEnv>) => c.env as unknown as ImportBindings;

const CountsSchema = z.object({
  read: z.number().int().openapi({ description: "Rows read (device rows for gudid)" }),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int().openapi({ description: "Rows equal to what is already there: nothing written" }),
  withdrawn: z.number().int().openapi({ description: "replace: products the file lacks, withdrawn (never deleted)" }),
  rejected: z.number().int(),
});

const jobSchema = (plane: JobPlane) =>
  z
    .object({
      id: z.string(),
      format: z.enum(plane.formats),
      mode: z.enum(plane.modes),
      dryRun: z.boolean(),
      onError: z.enum(ERROR_POLICIES),
      maxErrors: z.number().int(),
      maxWithdrawPercent: z.number().int(),
      state: z.enum(JOB_STATES),
      failure: z.object({ code: z.string(), message: z.string() }).nullable(),
      counts: CountsSchema.openapi({ description: "Final once validation has ended (a dry run ends there)" }),
      progress: z.object({
        phase: z.enum(["upload", "validating", "applying", "upkeep", "done"]),
        fraction: z.number().min(0).max(1),
        rowsPerSecond: z.number().int().nullable(),
        secondsLeft: z.number().int().nullable().openapi({ description: "Estimate for the phase under way" }),
        bytesTotal: z.number().int(),
        bytesDone: z.number().int(),
        rowsRead: z.number().int(),
        rowsToApply: z.number().int(),
        rowsApplied: z.number().int(),
        step: z.string().nullable().openapi({
          description: "What an import that rebuilds the catalog is doing, in words (null otherwise): copying, indexing, switching...",
          example: "building the full-text index",
        }),
      }),
      files: z.array(z.object({ name: z.string(), size: z.number().int().nullable(), gzip: z.boolean(), uploaded: z.boolean() })),
      createdAt: z.string().datetime(),
      startedAt: z.string().datetime().nullable(),
      validatedAt: z.string().datetime().nullable().openapi({ description: "When validation ended (the apply pass began)" }),
      finishedAt: z.string().datetime().nullable(),
      sameFilesAs: z
        .string()
        .nullable()
        .openapi({
          description:
            "Catalog imports: the earlier import whose files were byte for byte these, with the catalog unchanged since and nothing in " +
            "them that reading again could change: this job read no row and took its result (every row unchanged). Null when the job " +
            "read its files, and for price files.",
        }),
      links: z.object({ self: z.string(), errors: z.string(), upload: z.string(), start: z.string() }),
    })
    .openapi(plane.schemaName);

const createJobSchema = (plane: JobPlane) =>
  closedObject({
    format: z.enum(plane.formats).openapi({ description: plane.formatDescription }),
    mode: z
      .enum(plane.modes)
      .default("upsert")
      .openapi({
        description: plane.modes.length > 1 ? "replace also withdraws every product the file lacks" : "upsert: rows create or update",
      }),
    dryRun: z.boolean().default(false).openapi({ description: "Validate and count only; nothing is written" }),
    onError: z.enum(ERROR_POLICIES).default("rejectAll").openapi({
      description: "rejectAll: any rejected row fails the job and nothing is applied; skipFailedRows: the valid rows are applied",
    }),
    maxErrors: z
      .number()
      .int()
      .min(0)
      .max(100_000)
      .default(1000)
      .openapi({ description: "More rejected rows fail the job (validation stops there)" }),
    maxWithdrawPercent: z.number().int().min(0).max(100).default(10).openapi({
      description:
        "replace: the job fails before applying anything when the file lacks more than this percentage of the catalog's products",
    }),
  }).openapi(`Create${plane.schemaName}Request`);

const JobIdParams = z.object({
  id: z
    .string()
    .regex(/^imp_[A-Za-z0-9]{20}$/, "Must be an import id (imp_...).")
    .openapi({ param: { name: "id", in: "path" }, example: "imp_4f9QJ2mX8pL1vN7rT3kA" }),
});
const FileParams = JobIdParams.extend({
  name: z
    .string()
    .regex(FILE_NAME, "A file name is 1 to 100 letters, digits, dots, dashes and underscores.")
    .openapi({
      param: { name: "name", in: "path" },
      description:
        "The file's name. ndjson and csv jobs take one file of any name; gudid jobs take device.txt, identifiers.txt, " +
        "gmdnTerms.txt and productCodes.txt. Another is a 400 validation problem naming `name`.",
      example: "catalog.ndjson",
    }),
});
const PartParams = FileParams.extend({
  partNumber: wholeNumberText(1, MAX_PARTS, `A part number from 1 to ${MAX_PARTS}.`).openapi({
    param: { name: "partNumber", in: "path" },
    type: "integer",
    minimum: 1,
    maximum: MAX_PARTS,
    example: 1,
  }),
});

const FileUploadSchema = z
  .object({
    name: z.string(),
    size: z.number().int().nullable(),
    uploaded: z.boolean(),
    partSize: z.number().int(),
    parts: z.array(z.object({ partNumber: z.number().int(), size: z.number().int() })),
  })
  .openapi("CatalogImportFile");

const binaryBody = (description: string) => ({
  required: true,
  description,
  content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } },
});

const conflict = problem("The job is not in a state that allows this (the detail says which)");

const routesOf = (plane: JobPlane) => {
  const JobSchema = jobSchema(plane);
  const CreateJobSchema = createJobSchema(plane);
  return {
    create: createRoute({
      method: "post",
      path: `${plane.path}`,
      tags: [plane.tag],
      summary: "Create an import job",
      description:
        "Then upload its file(s) and start it. Fixes the job's format, mode and error policy; nothing is read until POST .../start. Answers the job (awaiting_upload) with the links to upload to and start.",
      ...plane.access,
      request: { body: { required: true, content: { "application/json": { schema: CreateJobSchema } } } },
      responses: { 201: envelopeResponse("Created, awaiting upload", JobSchema), ...authenticatedErrorResponses },
    }),
    list: createRoute({
      method: "get",
      path: `${plane.path}`,
      tags: [plane.tag],
      summary: "Import jobs, newest first",
      description: "The caller's jobs with their state and counts (files left out: GET the job for them).",
      ...plane.access,
      request: {
        query: z.object({
          limit: wholeNumberText(1, 100, "A limit from 1 to 100.")
            .optional()
            .openapi({ type: "integer", minimum: 1, maximum: 100, example: 20 }),
        }),
      },
      responses: { 200: envelopeResponse("Jobs", z.object({ items: z.array(JobSchema) })), ...authenticatedErrorResponses },
    }),
    get: createRoute({
      method: "get",
      path: `${plane.path}/{id}`,
      tags: [plane.tag],
      summary: "Get an import job",
      description:
        "Its state, counts and progress (rows/s, time left). Poll it while the job runs: phase, fraction done, rows per second and an estimate of the time left; counts are final once validation has ended. A job left idle by a restart is nudged when read.",
      ...plane.access,
      request: { params: JobIdParams },
      responses: { 200: envelopeResponse("The job", JobSchema), ...authenticatedErrorResponses, ...notFoundResponse },
    }),
    upload: createRoute({
      method: "put",
      path: `${plane.path}/{id}/files/{name}`,
      tags: [plane.tag],
      summary: "Upload a file in one request",
      description:
        `At most ${MAX_SINGLE_UPLOAD_BYTES} bytes; gzip accepted. Sends the whole file (up to the limit) with its Content-Length; sending it again replaces it. An empty body is a 400 ` +
        "naming `body`; larger files go in multipart parts (POST .../uploads).",
      ...plane.access,
      request: { params: FileParams, body: binaryBody("The file's bytes, as they are (gzip is detected); Content-Length required") },
      responses: {
        200: envelopeResponse("Stored", FileUploadSchema),
        ...authenticatedErrorResponses,
        ...notFoundResponse,
        409: conflict,
        411: problem("No Content-Length"),
      },
    }),
    beginMultipart: createRoute({
      method: "post",
      path: `${plane.path}/{id}/files/{name}/uploads`,
      tags: [plane.tag],
      summary: "Start or resume a multipart upload",
      description: `Of a large file, in parts of ${PART_SIZE} bytes. For files over the single-request limit: then PUT each part, and POST .../complete. Asking again for a file under way answers the same upload, to resume it.`,
      ...plane.access,
      request: { params: FileParams },
      responses: {
        201: envelopeResponse("Under way", FileUploadSchema),
        ...authenticatedErrorResponses,
        ...notFoundResponse,
        409: conflict,
      },
    }),
    part: createRoute({
      method: "put",
      path: `${plane.path}/{id}/files/{name}/parts/{partNumber}`,
      tags: [plane.tag],
      summary: "Upload one part",
      description: `Every part but the last is exactly ${PART_SIZE} bytes; sending a part again replaces it. Parts may come in any order and in parallel; each needs its Content-Length. A part that failed is simply sent again.`,
      ...plane.access,
      request: { params: PartParams, body: binaryBody("The part's bytes; Content-Length required") },
      responses: {
        200: envelopeResponse("Stored", z.object({ partNumber: z.number().int(), size: z.number().int() })),
        ...authenticatedErrorResponses,
        ...notFoundResponse,
        409: conflict,
        411: problem("No Content-Length"),
      },
    }),
    file: createRoute({
      method: "get",
      path: `${plane.path}/{id}/files/{name}`,
      tags: [plane.tag],
      summary: "Get a file's upload",
      description:
        "The parts received so far: to resume, send the others. After a lost connection: the part numbers and sizes stored so far, so a client sends only the missing ones.",
      ...plane.access,
      request: { params: FileParams },
      responses: { 200: envelopeResponse("The file", FileUploadSchema), ...authenticatedErrorResponses, ...notFoundResponse },
    }),
    complete: createRoute({
      method: "post",
      path: `${plane.path}/{id}/files/{name}/complete`,
      tags: [plane.tag],
      summary: "Complete a multipart upload",
      description: "Joins parts 1 to n in order into the file; a missing part, or one of the wrong size, is a 409 naming it.",
      ...plane.access,
      request: { params: FileParams },
      responses: { 200: envelopeResponse("Stored", FileUploadSchema), ...authenticatedErrorResponses, ...notFoundResponse, 409: conflict },
    }),
    start: createRoute({
      method: "post",
      path: `${plane.path}/{id}/start`,
      tags: [plane.tag],
      summary: "Start the job",
      description:
        "Once its files are uploaded; asking again resumes a started job left idle and answers it as it is. Validation then runs in the background (a Workflow): follow it with GET on the job. A vendor's price files run one at a time: another under way is a 409.",
      ...plane.access,
      request: { params: JobIdParams },
      responses: { 202: envelopeResponse("Started", JobSchema), ...authenticatedErrorResponses, ...notFoundResponse, 409: conflict },
    }),
    cancel: createRoute({
      method: "post",
      path: `${plane.path}/{id}/cancel`,
      tags: [plane.tag],
      summary: "Cancel a job",
      description:
        "A job awaiting upload or validating; once it applies, it runs to its end (nothing is half-applied). A job awaiting upload is cancelled at once, a validating one at its next window; either way nothing is written to the catalog.",
      ...plane.access,
      request: { params: JobIdParams },
      responses: {
        200: envelopeResponse("Cancelled, or cancelling at the next window", JobSchema),
        ...authenticatedErrorResponses,
        ...notFoundResponse,
        409: conflict,
      },
    }),
    errors: createRoute({
      method: "get",
      path: `${plane.path}/{id}/errors`,
      tags: [plane.tag],
      summary: "The rejected rows, a page at a time, by file and line",
      description:
        "Each rejected row's file, line, product key, field, code and message; page with nextCursor. The whole list at once: GET .../errors.ndjson.",
      ...plane.access,
      request: {
        params: JobIdParams,
        query: z.object({
          limit: wholeNumberText(1, 1000, "A limit from 1 to 1000.")
            .optional()
            .openapi({ type: "integer", minimum: 1, maximum: 1000, example: 100 }),
          cursor: z.string().max(200).optional().openapi({ description: "nextCursor of the previous page; any other value is a 400" }),
        }),
      },
      responses: {
        200: envelopeResponse("Rejected rows", z.object({ items: z.array(ImportErrorSchema), nextCursor: z.string().nullable() })),
        ...authenticatedErrorResponses,
        ...notFoundResponse,
      },
    }),
    errorsFile: createRoute({
      method: "get",
      path: `${plane.path}/{id}/errors.ndjson`,
      tags: [plane.tag],
      summary: "All rejected rows, one JSON object per line",
      description: "The same rows as GET .../errors, streamed as one download (Content-Disposition: attachment), for large imports.",
      ...plane.access,
      request: { params: JobIdParams },
      responses: {
        200: { description: "NDJSON", content: { "application/x-ndjson": { schema: z.string() } } },
        ...authenticatedErrorResponses,
        ...notFoundResponse,
      },
    }),
  };
};

const newJobId = () => {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return `imp_${[...crypto.getRandomValues(new Uint8Array(20))].map((b) => alphabet[b % alphabet.length]).join("")}`;
};

/** The routes of one kind of job (see JobPlane). */
export function importJobRoutes(plane: JobPlane) {
  const routes = routesOf(plane);
  /** The job, if it is of this kind and the caller's (a vendor's own offer jobs; another's are not found). */
  const jobOr404 = async (c: Context<AppEnv>, id: string) => {
    const found = await readJobWithFiles(bindings(c).CATALOG, id);
    if (!found || found.job.kind !== plane.kind || found.job.vendor_id !== plane.caller(c).vendorId) {
      throw new ProblemError(404, "not-found", "Not Found", `No import ${id}.`);
    }
    return found;
  };
  const collectionOf = (c: Context<AppEnv>) => `${new URL(c.req.url).origin}${plane.base}${plane.path}`;
  const show = (c: Context<AppEnv>, job: JobRow, files: FileRow[]) => presentJob(job, files, collectionOf(c));
  const fileView = async (c: Context<AppEnv>, jobId: string, name: string) => {
    const { files } = await jobOr404(c, jobId);
    const file = files.find((f) => f.name === name);
    if (!file) throw new ProblemError(404, "not-found", "Not Found", `The job has no file ${name}.`);
    const parts = await partsOf(bindings(c).CATALOG, jobId, name);
    return {
      name,
      size: file.size,
      uploaded: file.uploaded_at !== null,
      partSize: PART_SIZE,
      parts: parts.map((part) => ({ partNumber: part.part_number, size: part.size })),
    };
  };

  return createRouter()
    .openapi(routes.create, async (c) => {
      const body = c.req.valid("json");
      const id = newJobId();
      await bindings(c)
        .CATALOG.prepare(
          "INSERT INTO catalog_imports (id, kind, vendor_id, format, mode, dry_run, on_error, max_errors, max_withdraw_percent, state, " +
            "client_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'awaiting_upload', ?, ?)",
        )
        .bind(
          id,
          plane.kind,
          plane.caller(c).vendorId,
          body.format,
          body.mode,
          body.dryRun ? 1 : 0,
          body.onError,
          body.maxErrors,
          body.maxWithdrawPercent,
          plane.caller(c).clientId,
          new Date().toISOString(),
        )
        .run();
      const { job, files } = await jobOr404(c, id);
      return c.json(envelope(c, show(c, job, files)), 201, { Location: `${collectionOf(c)}/${id}` });
    })
    .openapi(routes.list, async (c) => {
      const limit = c.req.valid("query").limit ?? 20;
      const { results } = await bindings(c)
        .CATALOG.prepare("SELECT * FROM catalog_imports WHERE kind = ?1 AND vendor_id IS ?2 ORDER BY created_at DESC, id DESC LIMIT ?3")
        .bind(plane.kind, plane.caller(c).vendorId, limit)
        .all<JobRow>();
      return c.json(envelope(c, { items: results.map((job) => show(c, job, [])) }), 200);
    })
    .openapi(routes.get, async (c) => {
      const { job, files } = await jobOr404(c, c.req.valid("param").id);
      if (isStalled(job)) c.executionCtx.waitUntil(sweepImportJob(bindings(c), job.id));
      return c.json(envelope(c, show(c, job, files)), 200);
    })
    .openapi(routes.upload, async (c) => {
      const { id, name } = c.req.valid("param");
      const { job } = await jobOr404(c, id);
      await uploadWhole(bindings(c).CATALOG, bindings(c).IMPORTS, job, name, c.req.raw);
      return c.json(envelope(c, await fileView(c, id, name)), 200);
    })
    .openapi(routes.beginMultipart, async (c) => {
      const { id, name } = c.req.valid("param");
      const { job } = await jobOr404(c, id);
      await beginMultipart(bindings(c).CATALOG, bindings(c).IMPORTS, job, name);
      return c.json(envelope(c, await fileView(c, id, name)), 201);
    })
    .openapi(routes.part, async (c) => {
      const { id, name, partNumber } = c.req.valid("param");
      const { job } = await jobOr404(c, id);
      return c.json(envelope(c, await uploadPart(bindings(c).CATALOG, bindings(c).IMPORTS, job, name, partNumber, c.req.raw)), 200);
    })
    .openapi(routes.file, async (c) => {
      const { id, name } = c.req.valid("param");
      return c.json(envelope(c, await fileView(c, id, name)), 200);
    })
    .openapi(routes.complete, async (c) => {
      const { id, name } = c.req.valid("param");
      const { job } = await jobOr404(c, id);
      await completeMultipart(bindings(c).CATALOG, bindings(c).IMPORTS, job, name);
      return c.json(envelope(c, await fileView(c, id, name)), 200);
    })
    .openapi(routes.start, async (c) => {
      const { id } = c.req.valid("param");
      const { job, files } = await jobOr404(c, id);
      if (job.state === "awaiting_upload") await startJob(c as unknown as ImportContext, job, files);
      // Asking again makes sure a started job is moving (the sweep's nudge: a runtime restarted under it, src/operator/imports/sweep.ts).
      else if (job.state === "validating" || job.state === "running") await sweepImportJob(bindings(c), job.id);
      const current = await jobOr404(c, id);
      return c.json(envelope(c, show(c, current.job, current.files)), 202);
    })
    .openapi(routes.cancel, async (c) => {
      const { id } = c.req.valid("param");
      await jobOr404(c, id);
      const cancelled = await bindings(c)
        .CATALOG.prepare(
          "UPDATE catalog_imports SET cancel_requested = 1, state = CASE WHEN state = 'awaiting_upload' THEN 'cancelled' ELSE state END, " +
            "finished_at = CASE WHEN state = 'awaiting_upload' THEN ?2 ELSE finished_at END " +
            "WHERE id = ?1 AND (state IN ('awaiting_upload', 'validating') OR (state = 'cancelled')) RETURNING state",
        )
        .bind(id, new Date().toISOString())
        .first<{ state: string }>();
      const { job, files } = await jobOr404(c, id);
      if (!cancelled) {
        const detail =
          job.state === "running"
            ? "The job is applying its rows; it runs to its end so that nothing is half-applied."
            : `The job has already ${job.state}.`;
        throw new ProblemError(409, "conflict", "Conflict", detail);
      }
      return c.json(envelope(c, show(c, job, files)), 200);
    })
    .openapi(routes.errors, async (c) => {
      const { id } = c.req.valid("param");
      await jobOr404(c, id);
      const { limit, cursor } = c.req.valid("query");
      return c.json(envelope(c, await importErrorsPage(bindings(c).CATALOG, id, limit ?? 100, cursor)), 200);
    })
    .openapi(routes.errorsFile, async (c) => {
      const { id } = c.req.valid("param");
      await jobOr404(c, id);
      return c.body(streamImportErrors(bindings(c).CATALOG, id), 200, {
        "Content-Type": "application/x-ndjson",
        "Content-Disposition": `attachment; filename="${id}-errors.ndjson"`,
      }) as never;
    });
}

/** The operator's catalog import jobs. */
export const importRoutes = importJobRoutes({
  kind: "catalog",
  path: "/catalog/imports",
  base: ADMIN_API_BASE,
  tag: "Catalog import",
  schemaName: "CatalogImport",
  access: operatorScopedAccess("catalog:import"),
  formats: CATALOG_FORMATS,
  modes: IMPORT_MODES,
  formatDescription: "ndjson (one record per line), csv (header row) or gudid (the FDA AccessGUDID delimited release)",
  caller: (c) => ({ clientId: c.get("operatorPrincipal").clientId, vendorId: null }),
});

/**
 * Starts a job whose files are uploaded: validating from now, and its Workflow instance (named by the job id, so a
 * start asked twice creates one). A job left validating without an instance (a crash between the two) is started
 * by the sweep (src/operator/imports/sweep.ts).
 */
async function startJob(c: ImportContext, job: JobRow, files: FileRow[]) {
  const uploaded = files.filter((file) => file.uploaded_at !== null);
  const missing =
    job.format === "gudid"
      ? uploaded.some((file) => file.name === "device.txt")
        ? null
        : "device.txt"
      : uploaded.length === 0
        ? "the file"
        : null;
  if (missing) throw new ProblemError(409, "conflict", "Conflict", `Upload ${missing} before starting the job.`);
  // A vendor's price files run one at a time (they share the catalog database with every search), and so do catalog
  // imports (a bulk import switches the whole catalog: a second import's writes meanwhile would be lost); the check is
  // part of the start's own update, so that two starts at once cannot both pass it.
  const started = await c.env.CATALOG.prepare(
    "UPDATE catalog_imports SET state = 'validating', started_at = ?2 WHERE id = ?1 AND state = 'awaiting_upload' AND cancel_requested = 0 " +
      "AND NOT EXISTS (SELECT 1 FROM catalog_imports o WHERE o.kind = ?4 AND o.vendor_id IS ?3 AND o.id != ?1 AND o.state IN ('validating', 'running'))",
  )
    .bind(job.id, new Date().toISOString(), job.vendor_id, job.kind)
    .run();
  if (started.meta.changes === 1) await createInstance(c.env, job.id);
  else if ((await readJob(c.env.CATALOG, job.id))?.state === "awaiting_upload") {
    const other = job.vendor_id === null ? "Another catalog import" : "Another price file of the vendor";
    throw new ProblemError(409, "conflict", "Conflict", `${other} is under way: start this one once it has ended.`);
  }
}
