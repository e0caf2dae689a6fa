import { Badge, type Tone } from "@/components/ui/badge";
import type { Role } from "@/lib/auth/types";

const tones: Record<Role, Tone> = { admin: "blue", approver: "amber", viewer: "neutral" };

export function RoleBadge({ role }: { role: Role }) {
  return <Badge tone={tones[role]}>{role}</Badge>;
}
