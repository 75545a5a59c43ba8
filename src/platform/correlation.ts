const CLIENT_CORRELATION_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export const CORRELATION_HEADER = "X-Correlation-Id";

/** Accepts a well-formed client correlation id, otherwise mints a new one. */
export function correlationIdFor(clientValue: string | undefined): string {
  return clientValue && CLIENT_CORRELATION_ID.test(clientValue) ? clientValue : crypto.randomUUID();
}
