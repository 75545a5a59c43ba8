import { createRoute, z } from "@hono/zod-openapi";
import { unprocessable } from "../../platform/errors";
import { ONBOARDING_TAG } from "../../platform/openapi/info";
import { DESK_BASE } from "../../platform/planes";
import { envelope } from "../../platform/responses";
import { createRouter } from "../../platform/router";
import { authenticatedErrorResponses, closedObject, envelopeResponse, integerPathParam, problem } from "../../platform/schemas";
import { operatorScopedAccess } from "../../shared/auth/bearer";
import { DESK_ROLES, EMAIL_PATTERN, INVITATION_MINUTES, InvitationRefused, inviteUser } from "./users";

/**
 * The operator's invitation of a vendor's desk users (docs/desk.md, "Who signs in"): usually the vendor's first admin,
 * who then invites the rest from the desk. The invitation link is shown once (only its hash is kept).
 */

const VendorParams = z.object({ vendorId: integerPathParam("vendorId", 1, 2_147_483_647, "A vendor id.") });

const InviteDeskUserSchema = closedObject({
  email: z.string().max(254).regex(EMAIL_PATTERN, "Must be an email address.").openapi({
    description: "Where the user is reached; one user per email and vendor (case-insensitive)",
    example: "orders@acme-surgical.example",
  }),
  displayName: z.string().trim().min(1).max(100).regex(/\S/, "Must contain a non-space character.").openapi({ example: "Dana Reyes" }),
  role: z
    .enum(DESK_ROLES)
    .openapi({ description: "admin: users and offers, and the desk's work; desk: orders, shipments, returns, invoices" }),
}).openapi("InviteDeskUserRequest");

const DeskInvitationSchema = z
  .object({
    userId: z.number().int(),
    vendorId: z.number().int(),
    email: z.string(),
    role: z.enum(DESK_ROLES),
    invitationUrl: z.string().openapi({ description: "Where the user creates a passkey: valid once, shown once" }),
    expiresAt: z.string().datetime(),
  })
  .openapi("DeskInvitation");

const inviteRoute = createRoute({
  method: "post",
  path: "/vendors/{vendorId}/desk-users",
  tags: [ONBOARDING_TAG],
  summary: "Invite a vendor's order desk user",
  description: `Creates the user (or invites an existing, not disabled one again) and answers its invitation link, valid once and for ${INVITATION_MINUTES / 60} hours: opened in a browser, it creates the user's passkey and signs it in to the order desk (${DESK_BASE}). Only the link's hash is kept: give it to the user now.`,
  ...operatorScopedAccess("clients:manage"),
  request: {
    params: VendorParams,
    body: { required: true, content: { "application/json": { schema: InviteDeskUserSchema } } },
  },
  responses: {
    201: envelopeResponse("Invited", DeskInvitationSchema),
    ...authenticatedErrorResponses,
    422: problem("No enabled vendor has that id, or the user is disabled (`errors` says which)"),
  },
});

export const deskInvitationRoutes = createRouter().openapi(inviteRoute, async (c) => {
  const { vendorId } = c.req.valid("param") as unknown as { vendorId: number };
  const input = c.req.valid("json");
  const vendor = await c.env.DB.prepare("SELECT 1 FROM vendors WHERE id = ? AND disabled_at IS NULL").bind(vendorId).first();
  if (!vendor) throw unprocessable([`vendorId: no enabled vendor has id ${vendorId}.`]);
  try {
    const invitation = await inviteUser(c.env.DB, { vendorId, ...input, invitedBy: c.get("operatorPrincipal").clientId });
    const invitationUrl = new URL(`${DESK_BASE}/invitations/${invitation.token}`, c.req.url).href;
    return c.json(
      envelope(c, {
        userId: invitation.userId,
        vendorId,
        email: input.email.toLowerCase(),
        role: input.role,
        invitationUrl,
        expiresAt: invitation.expiresAt,
      }),
      201,
    );
  } catch (error) {
    if (error instanceof InvitationRefused) throw unprocessable([`email: ${error.message}`]);
    throw error;
  }
});
