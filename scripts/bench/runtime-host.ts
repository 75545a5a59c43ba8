import { type BenchRuntime, type HostedRuntime, runAppRuntime, runBareRuntime } from "./runtime";

/**
 * Child process of `npm run bench` that hosts one runtime (scripts/bench/runtime.ts, startHosted): it starts it,
 * prints `READY <baseUrl>`, and stops it on SIGTERM.
 */
const runtime = JSON.parse(process.argv[2] ?? "") as HostedRuntime;
const started: BenchRuntime =
  runtime.kind === "app" ? await runAppRuntime(runtime.options) : await runBareRuntime(runtime.port, runtime.oneD1Query);
console.log(`READY ${started.baseUrl}`);
process.once("SIGTERM", () => {
  started.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
});
