/**
 * Why an AS2 message was refused, in the terms of RFC 4130 section 7.5.3 (`processed/error: <kind>` in the MDN, mdn.ts),
 * plus two of ours that the MDN reports as `unexpected-processing-error`: malformed and too-large input.
 */
export type As2FailureKind =
  | "malformed" // not the MIME or CMS structure it claims to be
  | "too-large" // over one of AS2_LIMITS
  | "authentication-failed" // the signature is not the partner's, does not verify, or uses an algorithm we refuse
  | "integrity-check-failed" // a MIC or message digest does not match the content
  | "decryption-failed" // not for our certificate, does not decrypt, or uses an algorithm we refuse
  | "decompression-failed" // compressed (RFC 5402), which we do not read yet
  | "insufficient-message-security" // unsigned or unencrypted where the partner's setup requires it
  | "unsupported-mic-algorithms"; // the MDN must use a MIC algorithm we do not have (a `failed/Failure:` MDN)

export class As2Error extends Error {
  constructor(
    readonly kind: As2FailureKind,
    message: string,
    /** Set when the refusal is an algorithm we do not support (named in the message): the partner must change its setup. */
    readonly unsupportedAlgorithm?: string,
  ) {
    super(message);
    this.name = "As2Error";
  }
}

export const malformed = (message: string) => new As2Error("malformed", message);

export const unsupportedAlgorithm = (kind: As2FailureKind, algorithm: string, advice: string) =>
  new As2Error(kind, `${algorithm} is not supported (${advice})`, algorithm);
