/** SHA-256 of a text's UTF-8 bytes, as lower-case hex (WebCrypto: the Worker and the Node scripts alike). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
