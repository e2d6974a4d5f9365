// Request bodies of the Team endpoints (docs/dashboard.md, "Team").
import { z } from "zod";
import { ROLES } from "../accounts/roles";
import { Email } from "../validation/common";

export const RoleField = z.enum(ROLES);

export const InviteMemberBody = z.object({ email: z.string().trim().toLowerCase().pipe(Email), role: RoleField }).strict();

export const ChangeRoleBody = z.object({ role: RoleField }).strict();

export const SwitchMerchantBody = z.object({ merchantId: z.string().min(1).max(100) }).strict();
