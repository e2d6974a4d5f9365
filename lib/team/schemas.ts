// Request bodies of the Team endpoints (docs/dashboard.md, "Team").
import { z } from "zod";
import { ROLES } from "../accounts/roles";
import { PASSWORD_MIN_LENGTH } from "../auth/messages";
import { Email } from "../validation/common";

export const RoleField = z.enum(ROLES);

export const InviteMemberBody = z.object({ email: z.string().trim().toLowerCase().pipe(Email), role: RoleField }).strict();

export const ChangeRoleBody = z.object({ role: RoleField }).strict();

export const SwitchMerchantBody = z.object({ merchantId: z.string().min(1).max(100) }).strict();

/** Accepting an invitation: the token; a new account also chooses its name and password. */
export const AcceptInvitationBody = z
  .object({
    token: z.string().min(1).max(200),
    name: z.string().trim().min(1).max(100).optional(),
    password: z.string().min(PASSWORD_MIN_LENGTH).max(200).optional(),
  })
  .strict();
