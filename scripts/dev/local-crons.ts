import { unstable_readConfig } from "wrangler";
import { ADMIN_WRANGLER_CONFIG, DOCS_WRANGLER_CONFIG, WRANGLER_CONFIG } from "./local-platform";
import { devScheduledUrl, type ScheduledCall } from "./scheduled";

/**
 * Cron Triggers in the local runtime (`npm start`): wrangler dev fires none, so everything a cron does in production
 * (webhook sweeps, directory pushes, session purges, due steps) would never happen locally. This runs each Worker's
 * scheduled handler on its own wrangler.toml's `[triggers] crons`, at each minute they match (in UTC, as Cloudflare
 * runs them), through the route scripts/dev/worker.ts adds to the API Worker.
 */

export interface WorkerSchedule {
  worker: string;
  /** The API Worker's service binding of this Worker; absent for the API Worker itself. */
  binding?: string;
  crons: string[];
}

/**
 * The schedules of the local runtime's Workers: the API Worker (the first config) and each other Worker with crons,
 * reached over the API Worker's service binding to it (one it lacks is a mistake of the configs: thrown).
 */
export function localSchedules(configs = [WRANGLER_CONFIG, DOCS_WRANGLER_CONFIG, ADMIN_WRANGLER_CONFIG]): WorkerSchedule[] {
  const [api, ...others] = configs.map((config) => unstable_readConfig({ config }));
  const schedules: WorkerSchedule[] = [{ worker: api!.name!, crons: api!.triggers.crons ?? [] }];
  for (const other of others) {
    const crons = other.triggers.crons ?? [];
    if (crons.length === 0) continue;
    const binding = api!.services?.find((service: { binding: string; service: string }) => service.service === other.name)?.binding;
    if (!binding) throw new Error(`${other.name} has crons, but ${api!.name} has no service binding to it to run them locally.`);
    schedules.push({ worker: other.name!, binding, crons });
  }
  return schedules.filter((schedule) => schedule.crons.length > 0);
}

const FIELD_RANGES = [
  [0, 59], // minute
  [0, 23], // hour
  [1, 31], // day of month
  [1, 12], // month
  [0, 7], // day of week (0 and 7: Sunday)
] as const;

/** Whether `value` is in one cron field (`*`, `n`, `a-b`, any with `/step`, lists of them); numbers only. */
function fieldMatches(field: string, value: number, [min, max]: readonly [number, number]): boolean {
  return field.split(",").some((part) => {
    const [range, stepText] = part.split("/");
    const step = stepText === undefined ? 1 : Number(stepText);
    const [from, to] =
      range === "*"
        ? [min, max]
        : range!.includes("-")
          ? range!.split("-").map(Number)
          : [Number(range), stepText === undefined ? Number(range) : max];
    if (![from, to, step].every(Number.isInteger) || step < 1) throw new Error(`Unsupported cron field: ${field}`);
    return value >= from! && value <= to! && (value - from!) % step === 0;
  });
}

/** Whether a five-field cron expression fires at the minute of `at` (UTC); day of month and day of week as cron reads them. */
export function cronMatches(expression: string, at: Date): boolean {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) throw new Error(`Unsupported cron expression: ${expression}`);
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields as [string, string, string, string, string];
  const weekday = at.getUTCDay();
  const matches = (field: string, value: number, index: number) => fieldMatches(field, value, FIELD_RANGES[index]!);
  const dayOfMonthMatches = matches(dayOfMonth, at.getUTCDate(), 2);
  const dayOfWeekMatches = matches(dayOfWeek, weekday, 4) || (weekday === 0 && matches(dayOfWeek, 7, 4));
  // Both restricted: either day matches (cron's rule); one restricted: that one.
  const day = dayOfMonth !== "*" && dayOfWeek !== "*" ? dayOfMonthMatches || dayOfWeekMatches : dayOfMonthMatches && dayOfWeekMatches;
  return matches(minute, at.getUTCMinutes(), 0) && matches(hour, at.getUTCHours(), 1) && matches(month, at.getUTCMonth() + 1, 3) && day;
}

/** The scheduled handlers due at the minute of `at`: one call per Worker and cron that matches it. */
export function dueCalls(schedules: WorkerSchedule[], at: Date): ScheduledCall[] {
  const minute = Math.floor(at.getTime() / 60_000) * 60_000;
  return schedules.flatMap(({ binding, crons }) =>
    crons.filter((cron) => cronMatches(cron, at)).map((cron) => ({ cron, time: minute, ...(binding ? { binding } : {}) })),
  );
}

/** Runs the calls against the local runtime at `baseUrl`; a failure is reported, and the next minute tries again. */
export async function runScheduledCalls(baseUrl: string, calls: ScheduledCall[], report = console.warn): Promise<void> {
  await Promise.all(
    calls.map(async (call) => {
      const what = `${call.binding ?? "the API Worker"}'s scheduled handler (${call.cron})`;
      try {
        const res = await fetch(devScheduledUrl(baseUrl, call), { method: "POST" });
        if (!res.ok) report(`Could not run ${what}: ${res.status} ${await res.text()}`);
        else await res.body?.cancel();
      } catch (error) {
        report(`Could not run ${what}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }),
  );
}

/** Fires each Worker's crons at the start of every minute they match, until stopped. */
export function startLocalCrons(baseUrl: string, schedules = localSchedules(), run = runScheduledCalls): { stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  const next = () => {
    timer = setTimeout(
      () => {
        void run(baseUrl, dueCalls(schedules, new Date()));
        next();
      },
      60_000 - (Date.now() % 60_000),
    );
  };
  next();
  return { stop: () => clearTimeout(timer) };
}
