/** What lib/auth offers the browser: types only, so a component importing them brings no server code along (.dependency-cruiser.cjs). */

export type { Role } from "@/db/schema";
export type { ApiKeyDto } from "./api-keys";
export type { AuditEntryDto } from "./audit-log";
export type { InstanceOwnerDto } from "./instance-owners";
export type { PendingInvitationDto } from "./invitations";
