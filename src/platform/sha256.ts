/** Bytes as lower-case hex. */
export const hexOf = (bytes: ArrayBuffer | Uint8Array): string =>
  Array.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

/** SHA-256 of a text's UTF-8 bytes, as lower-case hex (WebCrypto: the Worker and the Node scripts alike). */
export async function sha256Hex(text: string): Promise<string> {
  return hexOf(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}
