/**
 * The local runtime's route that runs a Worker's scheduled handler as its Cron Trigger would (scripts/dev/worker.ts
 * serves it, scripts/dev/local-crons.ts calls it on each Worker's schedule): `POST /__dev/scheduled?cron=&time=[&binding=]`,
 * where `binding` names the API Worker's service binding of the Worker to run (absent: the API Worker itself).
 */
export const DEV_SCHEDULED_PATH = "/__dev/scheduled";

export interface ScheduledCall {
  cron: string;
  /** The scheduled time, in ms since the epoch. */
  time: number;
  /** The API Worker's service binding of the Worker to run; absent, the API Worker. */
  binding?: string;
}

export function devScheduledUrl(baseUrl: string, call: ScheduledCall): string {
  const query = new URLSearchParams({ cron: call.cron, time: String(call.time), ...(call.binding ? { binding: call.binding } : {}) });
  return `${baseUrl}${DEV_SCHEDULED_PATH}?${query}`;
}

export function scheduledCallOf(url: URL): ScheduledCall {
  const binding = url.searchParams.get("binding");
  return {
    cron: url.searchParams.get("cron") ?? "",
    time: Number(url.searchParams.get("time") ?? Date.now()),
    ...(binding === null ? {} : { binding }),
  };
}
