// Types of the bundle's zod (index.js): zod's own, which it mirrors minus `locales`.
export * from "zod";
export { default, z } from "zod";
