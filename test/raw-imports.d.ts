/** Vite's `?raw` imports (used to check docs against the code). */
declare module "*.md?raw" {
  const text: string;
  export default text;
}

/** Fixture files read whole (test/fixtures). */
declare module "*.txt?raw" {
  const text: string;
  export default text;
}

/** Wrangler configurations read whole (what is deployed, e.g. a Worker's crons). */
declare module "*.toml?raw" {
  const text: string;
  export default text;
}
