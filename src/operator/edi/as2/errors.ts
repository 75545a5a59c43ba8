/**
 * Why an AS2 message was refused. The kinds that RFC 4130 names (section 7.4.3) become the MDN's
 * `processed/error: ...` modifier (mdn.ts); the others are ours and are reported as `unexpected-processing-error`.
 */
export type As2FailureKind =
  | "malformed" // not the MIME or CMS structure it claims to be
  | "too-large" // over one of AS2_LIMITS
  | "unsupported-algorithm" // a digest, signature, key transport or cipher we do not accept
  | "authentication-failed" // the signature is not the partner's, or does not verify
  | "integrity-check-failed" // a MIC or message digest does not match the content
  | "decryption-failed"; // no recipient for our certificate, or the key or content does not decrypt

export class As2Error extends Error {
  constructor(
    readonly kind: As2FailureKind,
    message: string,
  ) {
    super(message);
    this.name = "As2Error";
  }
}

export const malformed = (message: string) => new As2Error("malformed", message);
