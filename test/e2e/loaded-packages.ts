import { registerHooks } from "node:module";

/**
 * `--import` this file to learn which npm packages a process loaded: their names are printed on stderr at exit, after
 * LOADED_PACKAGES_MARK (test/e2e/scripts-cli.e2e.test.ts: what a script's --help loads).
 */
export const LOADED_PACKAGES_MARK = "loaded packages:";

const loaded = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(resolved.url)?.[1];
    if (name) loaded.add(name);
    return resolved;
  },
});
process.on("exit", () => process.stderr.write(`\n${LOADED_PACKAGES_MARK} ${[...loaded].sort().join(" ")}\n`));
