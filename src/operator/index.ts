import type { Bindings } from "../env";
import { publishedAuthority } from "../shared/auth/keys";
import { DIRECTORY_PUSH_CRON } from "./crons";
import type { ImportBindings } from "./imports/bindings";

export { CatalogImportWorkflow } from "./import-workflow";

/**
 * The operator plane's Worker (admin/wrangler.toml; docs/architecture.md, "The operator plane"): /admin/api, reached
 * through the API Worker's ADMIN service binding, and the catalog import Workflow. Its code never weighs on the
 * buyer path's bundle or cold start.
 */
export type AdminBindings = Bindings & ImportBindings & { API: Fetcher };

/** The bindings with the API's issuer, which operator tokens must carry (learnt from the API, src/shared/auth/keys.ts). */
async function withIssuer(env: AdminBindings): Promise<AdminBindings> {
  const { issuer } = await publishedAuthority(env.API);
  return Object.create(env, { ISSUER: { value: issuer } }) as AdminBindings;
}

let app: Promise<{ fetch: ExportedHandlerFetchHandler<AdminBindings> }> | undefined;
const appOnce = () => {
  app ??= import("./app").then(
    ({ createAdminApp }) => createAdminApp() as unknown as { fetch: ExportedHandlerFetchHandler<AdminBindings> },
  );
  return app;
};

/**
 * The operator plane's Cron Trigger: keeps started import jobs going, tells the operator of secrets about to expire,
 * purges audit entries past their retention, PunchOut sessions past their end and documents sent to suites past theirs, pushes the
 * directory changes a failed push left to the tenants' stores, and keeps X12 going (received files applied, AS2 documents
 * sent, overdue acknowledgments told: src/operator/edi/housekeeping.ts, at the cron's scheduled time, as the API
 * Worker's housekeeping takes it; npm run crash-test:edi runs it minutes ahead). Each part runs even when another fails.
 */
async function housekeeping(env: AdminBindings, scheduledTime: number): Promise<void> {
  const [
    { sweepImportJobs },
    { warnExpiringSecrets },
    { purgeAudit },
    { pushDirectoryChanges },
    { purgeSessions },
    { purgeSentDocuments },
    { ediHousekeeping },
  ] = await Promise.all([
    import("./imports/sweep"),
    import("./onboarding/clients"),
    import("./onboarding/audit"),
    import("./tenant-stores/directory-mirror"),
    import("./procurement/sessions"),
    import("./procurement/documents"),
    import("./edi/housekeeping"),
  ]);
  const results = await Promise.allSettled([
    sweepImportJobs(env),
    warnExpiringSecrets(env),
    purgeAudit(env.DB, new Date()),
    pushDirectoryChanges(env),
    purgeSessions(env.DB, new Date()),
    purgeSentDocuments(env.DB, new Date()),
    ediHousekeeping(env, new Date(scheduledTime)),
  ]);
  const failed = results.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (failed) throw failed.reason;
}

/** The every-minute cron (src/operator/crons.ts): the directory changes a crash or a failed push left, and nothing else. */
async function pushDirectory(env: AdminBindings): Promise<void> {
  const { pushDirectoryChanges } = await import("./tenant-stores/directory-mirror");
  await pushDirectoryChanges(env);
}

export default {
  fetch: async (request, env, ctx) => (await appOnce()).fetch(request, await withIssuer(env), ctx),
  scheduled: (controller, env, ctx) =>
    ctx.waitUntil(controller.cron === DIRECTORY_PUSH_CRON ? pushDirectory(env) : housekeeping(env, controller.scheduledTime)),
} satisfies ExportedHandler<AdminBindings>;
