import { readCertificate, readPrivateKey, type SigningIdentity } from "./cms";

/** Medparts' AS2 identity (AS2_PRIVATE_KEY, AS2_CERTIFICATE): what partners encrypt for, and what signs our messages and MDNs. */
export interface As2IdentityEnv {
  AS2_PRIVATE_KEY?: string;
  AS2_CERTIFICATE?: string;
}

export class As2NotConfigured extends Error {}

let cached: { source: string; identity: SigningIdentity } | undefined;

/** Our identity from the deployment's secrets, read once per isolate (and again when they change). */
export function ourAs2Identity(env: As2IdentityEnv): SigningIdentity {
  if (!env.AS2_PRIVATE_KEY || !env.AS2_CERTIFICATE) {
    throw new As2NotConfigured('AS2_PRIVATE_KEY and AS2_CERTIFICATE are not configured (docs/as2.md, "Our identity")');
  }
  const source = `${env.AS2_PRIVATE_KEY}\n${env.AS2_CERTIFICATE}`;
  if (cached?.source !== source) {
    cached = { source, identity: { certificate: readCertificate(env.AS2_CERTIFICATE), privateKey: readPrivateKey(env.AS2_PRIVATE_KEY) } };
  }
  return cached.identity;
}
