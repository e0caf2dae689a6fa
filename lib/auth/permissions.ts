import type { Role } from "@/db/schema";
import { AppError } from "@/lib/errors";

/**
 * What a caller may do. Roles grow by inclusion: a viewer reads, an approver also decides
 * approvals, an admin also manages (servers, secrets, tools, principals, members, keys, policy).
 */
export type Permission = "read" | "decide" | "manage";

const granted: Record<Role, readonly Permission[]> = {
  viewer: ["read"],
  approver: ["read", "decide"],
  admin: ["read", "decide", "manage"],
};

export function roleCan(role: Role, permission: Permission): boolean {
  return granted[role].includes(permission);
}

const refusals: Record<Permission, string> = {
  read: "You are not a member of this workspace.",
  decide: "Deciding approvals needs the approver or admin role in this workspace.",
  manage: "This change needs the admin role in this workspace.",
};

export function assertRoleCan(role: Role | null, permission: Permission): void {
  if (!role || !roleCan(role, permission)) throw new AppError("forbidden", refusals[permission]);
}
