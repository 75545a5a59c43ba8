import { type ParseArgsOptionsConfig, parseArgs } from "node:util";

/**
 * What every `npm run <script>` shares: `--help`, a usage error (exit 2) for an option it does not take, `--url` /
 * `MEDPARTS_URL` / `PORT` read the same way, and a one-line message instead of a stack trace when the user can fix what
 * went wrong (a wrong option, the server not running). A stack trace is printed only for a bug, or with DEBUG=1.
 * A script parses its command line before it imports what its work needs (`await import(...)` after cliArgs): wrangler,
 * Miniflare, autocannon and the API's routes take seconds to load, and --help or a usage error waits for none of them.
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

/** What --url is, in a usage text: generated (cliArgs) or written by hand (the option line). */
const URL_HELP = "the API (default: MEDPARTS_URL, else http://localhost:$PORT, port 8787)";
export const URL_OPTION_HELP = `  ${"--url <base>".padEnd(28)} ${URL_HELP}`;

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

/** A command-line option: parseArgs' own fields and what the usage text says of it. */
export interface Option {
  type: "string" | "boolean";
  default?: string | boolean;
  multiple?: boolean;
  short?: string;
  /** For the usage text: what it does (the default is added). */
  help: string;
  /** For the usage text: the value's placeholder (`<n>`, `<file>`). */
  value?: string;
}

/** The values parseArgs gives for `O`: a string or boolean, undefined when not given and without a default. */
type OptionValues<O extends Record<string, Option>> = {
  [K in keyof O]: O[K]["multiple"] extends true
    ? string[] | (O[K] extends { default: unknown } ? never : undefined)
    : (O[K]["type"] extends "boolean" ? boolean : string) | (O[K] extends { default: unknown } ? never : undefined);
};

/** The usage text of a script: its command, what it does, and every option with its default. */
export function usageOf(script: string, summary: string, options: Record<string, Option>, operands = ""): string {
  const flag = (name: string, option: Option) => `--${name}${option.type === "string" ? ` ${option.value ?? "<value>"}` : ""}`;
  const width = Math.max(20, ...Object.entries(options).map(([name, option]) => flag(name, option).length)) + 2;
  const lines = Object.entries(options).map(([name, option]) => {
    const fallback =
      option.default === undefined || option.default === false || option.default === "" ? "" : ` (default ${option.default})`;
    return `  ${flag(name, option).padEnd(width)} ${option.help}${fallback}`;
  });
  return [
    `usage: npm run ${script} --${operands ? ` ${operands}` : ""} [options]`,
    "",
    summary,
    ...lines,
    `  ${"-h, --help".padEnd(width)} this text`,
  ].join("\n");
}

/** Prints what went wrong, without a stack trace unless DEBUG is set, and exits: for scripts that run at top level. */
export function exitOnFailure(usage: string, url?: string): void {
  const handle = (error: unknown) => {
    const { message, code } = describeFailure(error, usage, url);
    console.error(message);
    process.exit(code);
  };
  process.on("uncaughtException", handle);
  process.on("unhandledRejection", handle);
}

/**
 * The command line of a script that runs at top level: --help prints its usage (exit 0), a wrong option is a usage
 * error (exit 2), and a failure later prints its message only (exitOnFailure). With `url`, it takes --url too and
 * returns the API's base URL (baseUrlOf), which a failure to reach it names.
 */
export function cliArgs<O extends Record<string, Option>>(
  script: string,
  summary: string,
  options: O,
  config: { operands?: string; argv?: string[]; url?: boolean } = {},
): { values: OptionValues<O>; positionals: string[]; usage: string; url: string } {
  const withUrl: Record<string, Option> = config.url ? { ...options, url: { type: "string", help: URL_HELP, value: "<base>" } } : options;
  const usage = usageOf(script, summary, withUrl, config.operands);
  const parseOptions = Object.fromEntries(
    Object.entries(withUrl).map(([name, { help: _help, value: _value, ...option }]) => [name, option]),
  ) as ParseArgsOptionsConfig;
  let parsed: ReturnType<typeof parseArgs>;
  let url = "";
  try {
    parsed = parseArgs({
      args: config.argv ?? process.argv.slice(2),
      options: { ...parseOptions, help: { type: "boolean", short: "h" } },
      allowPositionals: config.operands !== undefined,
      strict: true,
    });
    if (config.url && !parsed.values.help) url = baseUrlOf(parsed.values.url as string | undefined);
  } catch (error) {
    const usageError = error instanceof UsageError ? error : new UsageError((error as Error).message);
    console.error(describeFailure(usageError, usage).message);
    process.exit(2);
  }
  if (parsed.values.help) {
    console.log(usage);
    process.exit(0);
  }
  exitOnFailure(usage, url || undefined);
  return { values: parsed.values as never, positionals: parsed.positionals, usage, url };
}

/** The --port of a script that starts a runtime of its own (benches, crash tests): a port apart from npm start's. */
export const ownRuntimePort = (port: string, what = "test"): Option & { default: string } => ({
  type: "string",
  default: port,
  help: `port of the ${what}'s own runtime`,
  value: "<port>",
});

/** The port a helper server of a script listens on: the option's, else 0, a free port the system picks. */
export function listenPortOf(text: string | undefined, flag: string): number {
  if (text === undefined || text === "") return 0;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65535) throw new UsageError(`${flag} is a port number, not "${text}".`);
  return port;
}
