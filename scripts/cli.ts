import { type ParseArgsOptionsConfig, parseArgs } from "node:util";

/**
 * What every `npm run <script>` shares: `--help`, a usage error (exit 2) for an option it does not take, `--url` /
 * `MEDPARTS_URL` / `PORT` read the same way, and a one-line message instead of a stack trace when the user can fix what
 * went wrong (a wrong option, the server not running). A stack trace is printed only for a bug, or with DEBUG=1.
 */

/** A mistake in the command line: the message, then the usage line (exit 2). */
export class UsageError extends Error {}
/** Something the user can fix outside the command line (a missing file, no server): the message alone (exit 1). */
export class UserError extends Error {}

export const DEFAULT_PORT = "8787";

/** The API's base URL: --url, else MEDPARTS_URL, else http://localhost:$PORT (default 8787), without a trailing slash. */
export function baseUrlOf(url?: string): string {
  const base = url ?? process.env.MEDPARTS_URL ?? `http://localhost:${process.env.PORT ?? DEFAULT_PORT}`;
  if (!/^https?:\/\/[^/\s]+/.test(base)) throw new UsageError(`--url is an http(s) base URL, not "${base}".`);
  return base.replace(/\/+$/, "");
}

/** The lines every usage text ends with: the shared options. */
export const COMMON_OPTIONS_HELP = "  -h, --help                   this text";
export const URL_OPTION_HELP = "  --url <base>                 the API (default: MEDPARTS_URL, else http://localhost:$PORT, port 8787)";

/** An error of fetch that means nothing answered at `url` (refused, unknown host, reset). */
function unreachable(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } })?.cause?.code;
  return error instanceof TypeError && error.message === "fetch failed" && cause !== undefined;
}

/** The message a user sees for `error`, and the exit code. */
export function describeFailure(error: unknown, usage: string, url?: string): { message: string; code: number } {
  if (error instanceof UsageError) return { message: `${error.message}\n${usage.split("\n")[0]}  (--help for more)`, code: 2 };
  if (error instanceof UserError) return { message: error.message, code: 1 };
  if (unreachable(error)) {
    const where = url ?? "the API";
    return { message: `Cannot reach ${where}: is \`npm start\` running? (--url or PORT point elsewhere)`, code: 1 };
  }
  const message = error instanceof Error ? error.message : String(error);
  const stack = process.env.DEBUG && error instanceof Error ? `\n${error.stack}` : "";
  return { message: `error: ${message}${stack}${stack ? "" : "\n(DEBUG=1 shows where it failed)"}`, code: 1 };
}

export interface CliSpec<O extends ParseArgsOptionsConfig> {
  usage: string;
  options: O;
  /** Takes positional arguments (files); without, one is a usage error. */
  positionals?: boolean;
  /** Takes --url (the API's base URL). */
  url?: boolean;
  main: (args: {
    values: ReturnType<typeof parseArgs<{ options: O; allowPositionals: true }>>["values"];
    positionals: string[];
    url: string;
  }) => Promise<number | undefined> | number | undefined;
}

/** Parses the command line, answers --help, runs `main` and exits with its code, or with the failure's. */
export async function runCli<O extends ParseArgsOptionsConfig>(spec: CliSpec<O>, argv = process.argv.slice(2)): Promise<void> {
  const options = {
    ...spec.options,
    help: { type: "boolean", short: "h" },
    ...(spec.url ? { url: { type: "string" } } : {}),
  } as O;
  let url: string | undefined;
  try {
    let parsed: ReturnType<typeof parseArgs<{ options: O; allowPositionals: true }>>;
    try {
      parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if ((parsed.values as { help?: boolean }).help) {
      console.log(spec.usage);
      process.exitCode = 0;
      return;
    }
    if (!spec.positionals && parsed.positionals.length > 0) throw new UsageError(`Unexpected argument "${parsed.positionals[0]}".`);
    url = spec.url ? baseUrlOf((parsed.values as { url?: string }).url) : "";
    process.exitCode = (await spec.main({ values: parsed.values, positionals: parsed.positionals, url })) ?? 0;
  } catch (error) {
    const { message, code } = describeFailure(error, spec.usage, url);
    console.error(message);
    process.exitCode = code;
  }
}
