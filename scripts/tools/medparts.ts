import { pathToFileURL } from "node:url";
import { cliArgs, describeFailure, UsageError } from "../cli";

/**
 * `npm run medparts -- <command>`: the integrator's command line against a running deployment (`npm start` by default).
 * `trigger <type>` makes an event happen in test mode and shows its delivery; `logs tail` follows a client's request log;
 * `listen` receives webhooks (`npm run webhook-listener`). Each command takes --help.
 */
const COMMANDS = {
  trigger: "trigger <event-type>   make an event happen in test mode (a test order and the simulated vendor) and show its delivery",
  logs: "logs tail              follow a client's request log: the last requests, then each new one",
  listen: "listen                 receive webhooks: a listener for every event type, verified (npm run webhook-listener)",
} as const;

const USAGE = [
  "usage: npm run medparts -- <command> [options]",
  "",
  "The integrator's command line against a running deployment (npm start by default).",
  "",
  ...Object.values(COMMANDS).map((line) => `  ${line}`),
  "",
  "npm run medparts -- <command> --help for a command's options.",
].join("\n");

const credentialOptions = {
  "client-id": {
    type: "string",
    help: "the client (default: MEDPARTS_CLIENT_ID, else a demo client of .medparts-demo.json)",
    value: "<id>",
  },
  "client-secret": { type: "string", help: "its secret (default: MEDPARTS_CLIENT_SECRET, else the demo client's)", value: "<secret>" },
} as const;

async function triggerCommand(argv: string[]) {
  const { triggerableTypes } = await import("./medparts/trigger");
  const { values, positionals, url } = cliArgs(
    "medparts",
    `Makes an event of <event-type> happen for real in test mode: a test order of the demo buyer, the simulated vendor's scenarios and the buyer's moves, then prints its verified delivery to a listener registered for the run. Types made to happen: ${triggerableTypes().join(", ")}. Any other type is sent as the endpoint's signed sample, and says so.`,
    { ...credentialOptions, timeout: { type: "string", default: "30", help: "seconds to wait for the delivery", value: "<s>" } },
    { argv, operands: "trigger <event-type>", url: true },
  );
  if (positionals.length !== 1) throw new UsageError("Name one event type, e.g. order.shipped.");
  const [{ credentialsOf, Session }, { startWebhookListener }, { trigger }] = await Promise.all([
    import("./medparts/session"),
    import("./webhook-listener"),
    import("./medparts/trigger"),
  ]);
  const credentials = credentialsOf(values, "testMode");
  // Never a live order: the recipes place real orders and drive them with the sandbox's helpers.
  const { TEST_CLIENT_PREFIX } = await import("../../src/platform/test-mode");
  if (!credentials.clientId.startsWith(TEST_CLIENT_PREFIX)) {
    throw new UsageError(`trigger works in test mode only: ${credentials.clientId} is not a test-mode client (${TEST_CLIENT_PREFIX}_...).`);
  }
  // One token for the run's calls and its listener (the token endpoint limits each client's requests).
  const session = new Session(url, credentials);
  const listener = await startWebhookListener({ baseUrl: url, credentials, token: await session.accessToken(), port: 0 });
  try {
    const { event, sample } = await trigger(
      session,
      listener,
      positionals[0]!,
      (line) => console.log(`  ${line}`),
      Number(values.timeout) * 1000,
    );
    console.log(`${sample ? "sample " : ""}${event.type} delivered to ${listener.url}, signature verified:`);
    console.log(JSON.stringify(event, null, 2));
  } finally {
    await listener.stop();
  }
}

async function logsCommand(argv: string[]) {
  const { values, positionals, url } = cliArgs(
    "medparts",
    "Prints a client's request log (GET /customer/api/request-logs, or the vendor's with --vendor): the last requests, then each new one as Medparts logs it, until Ctrl-C. By default the demo test-mode buyer's log.",
    {
      ...credentialOptions,
      live: { type: "boolean", help: "the demo live buyer's log instead of the test-mode one" },
      vendor: { type: "boolean", help: "a vendor's log (/vendor/api/request-logs; the demo vendor by default)" },
      q: { type: "string", help: 'only requests matching this q filter, e.g. status>=400 or path~"/orders"', value: "<q>" },
      last: { type: "string", default: "10", help: "how many earlier requests to print first", value: "<n>" },
      "no-follow": { type: "boolean", help: "print the last requests and stop" },
    },
    { argv, operands: "logs tail", url: true },
  );
  if (positionals.join(" ") !== "tail") throw new UsageError("The logs command is `logs tail`.");
  const last = Number(values.last);
  if (!Number.isInteger(last) || last < 1 || last > 100)
    throw new UsageError(`--last is a whole number from 1 to 100, not "${values.last}".`);
  const [{ credentialsOf, Session }, { tailLogs }] = await Promise.all([import("./medparts/session"), import("./medparts/logs")]);
  const credentials = credentialsOf(values, values.vendor ? "vendor" : values.live ? "live" : "testMode");
  await tailLogs(new Session(url, credentials), values.vendor ? "/vendor/api" : "/customer/api", {
    last,
    intervalMs: 1000,
    q: values.q,
    follow: !values["no-follow"],
    print: (line) => console.log(line),
  });
}

async function listenCommand(argv: string[]) {
  const { runWebhookListener } = await import("./webhook-listener");
  await runWebhookListener(argv, "medparts", "listen");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [command, ...rest] = process.argv.slice(2);
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    console.log(USAGE);
    process.exit(command === undefined ? 2 : 0);
  }
  const run = { trigger: triggerCommand, logs: logsCommand, listen: listenCommand }[command];
  if (!run) {
    console.error(describeFailure(new UsageError(`Unknown command "${command}": trigger, logs or listen.`), USAGE).message);
    process.exit(2);
  }
  await run(rest);
}
