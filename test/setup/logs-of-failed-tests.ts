import { afterAll, afterEach, beforeEach, onTestFailed } from "vitest";

/**
 * What the Worker logs (a JSON line per request) is kept for the test that is running and printed only if that test
 * fails, as vitest's `silent: "passed-only"` does; lines written outside a test (a file's beforeAll, work that settles
 * after its test) are printed if any test of the file failed. Printing every line for vitest to discard cost the fuzzers
 * about an eighth of their time: each line crossed from workerd to vitest's process. The Worker's code shares this
 * isolate's console (`isolate: false`, SELF in the same isolate), and this file runs before every test file in it, so
 * the console is replaced once per isolate and the state lives on globalThis.
 */
const METHODS = ["log", "info", "warn", "error", "debug"] as const;
type Method = (typeof METHODS)[number];
type Line = [Method, unknown[]];

interface KeptLogs {
  print: Record<Method, (...args: unknown[]) => void>;
  test: Line[];
  outsideTests: Line[];
  inTest: boolean;
  fileFailed: boolean;
}

function keepLogs(): KeptLogs {
  const kept: KeptLogs = {
    print: Object.fromEntries(METHODS.map((m) => [m, console[m].bind(console)])) as KeptLogs["print"],
    test: [],
    outsideTests: [],
    inTest: false,
    fileFailed: false,
  };
  for (const method of METHODS) {
    console[method] = (...args: unknown[]) => void (kept.inTest ? kept.test : kept.outsideTests).push([method, args]);
  }
  return kept;
}

const KEY = Symbol.for("medparts.test.keptLogs");
const isolateGlobals = globalThis as Record<symbol, KeptLogs>;
isolateGlobals[KEY] ??= keepLogs();
const state = isolateGlobals[KEY];

const flush = (lines: Line[]) => {
  for (const [method, args] of lines.splice(0)) state.print[method](...args);
};

beforeEach(() => {
  state.inTest = true;
  state.test = [];
  onTestFailed(() => {
    state.fileFailed = true;
    flush(state.test);
  });
});

afterEach(() => {
  state.inTest = false;
});

afterAll(() => {
  if (state.fileFailed) flush(state.outsideTests);
  state.outsideTests = [];
  state.fileFailed = false;
});
