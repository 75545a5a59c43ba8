/** Vite's `?raw` imports (used to check docs against the code). */
declare module "*.md?raw" {
  const text: string;
  export default text;
}
