/** Scalar's ES module entry as the reference pages import it (portal/assets/reference.js); its chunks are beside it, in chunks/. */
export const SCALAR_ENTRY = "/docs/assets/scalar/standalone.esm.js";
