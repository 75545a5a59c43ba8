import { fetchToken } from "../bench/client";
import { cliArgs, UsageError, UserError } from "../cli";
import { savedDemoClients } from "../dev/local-platform";

/**
 * `npm run desk:invite -- --vendor <id> --email <address> [--name <name>] [--role admin|desk]`: invites a vendor's user
 * to the order desk through the operator API (POST /admin/api/vendors/{id}/desk-users) and prints the invitation link,
 * valid once for 24 hours. The operator client is npm start's demo one unless --client-id and --client-secret say.
 */
const { values, url } = cliArgs(
  "desk:invite",
  "Invites a vendor's user to the order desk and prints the link where the user creates a passkey (valid once, 24 h).",
  {
    vendor: { type: "string", help: "the vendor's id", value: "<id>" },
    email: { type: "string", help: "the user's email address", value: "<address>" },
    name: { type: "string", help: "the user's name as the desk shows it (default: the email)", value: "<name>" },
    role: { type: "string", default: "admin", help: "admin (users and offers too) or desk", value: "<role>" },
    "client-id": { type: "string", help: "an operator client (default: npm start's demo operator)", value: "<id>" },
    "client-secret": { type: "string", help: "its secret", value: "<secret>" },
  },
  { url: true },
);

const vendorId = Number(values.vendor);
if (!Number.isInteger(vendorId) || vendorId < 1) throw new UsageError("--vendor takes a vendor id (a positive integer).");
if (!values.email) throw new UsageError("--email is required.");
if (values.role !== "admin" && values.role !== "desk") throw new UsageError("--role is admin or desk.");
const demo = savedDemoClients()?.operator;
const clientId = values["client-id"] ?? demo?.clientId;
const clientSecret = values["client-secret"] ?? demo?.clientSecret;
if (!clientId || !clientSecret) {
  throw new UsageError(
    "No operator credentials: pass --client-id and --client-secret, or run `npm start` first (it writes the demo clients).",
  );
}
const token = await fetchToken(url, clientId, clientSecret);
const res = await fetch(`${url}/admin/api/vendors/${vendorId}/desk-users`, {
  method: "POST",
  headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json" },
  body: JSON.stringify({ email: values.email, displayName: values.name ?? values.email, role: values.role }),
});
const body = (await res.json().catch(() => ({}))) as {
  data?: { invitationUrl: string; expiresAt: string; userId: number };
  detail?: string;
  errors?: unknown;
};
if (res.status !== 201 || !body.data) {
  throw new UserError(`The invitation was refused (HTTP ${res.status}): ${body.detail ?? ""} ${JSON.stringify(body.errors ?? "")}`.trim());
}
console.log(`Invited ${values.email} (user ${body.data.userId}, ${values.role}) to vendor ${vendorId}'s order desk.`);
console.log(`Send this link; it creates the user's passkey, once, until ${body.data.expiresAt}:`);
console.log(`  ${body.data.invitationUrl}`);
