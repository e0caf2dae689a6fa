import { Badge, type Tone } from "@/components/ui/badge";
import type { ToolDto } from "@/lib/catalog/types";
import { isRecord } from "./format";

const hints = [
  { key: "readOnlyHint", yes: "read-only", no: "not read-only" },
  { key: "destructiveHint", yes: "destructive", no: "non-destructive" },
  { key: "idempotentHint", yes: "idempotent", no: "not idempotent" },
  { key: "openWorldHint", yes: "open world", no: "closed world" },
] as const;

/** The annotations the server declares about its own tool. Shown, never trusted. */
export function HintBadges({ annotations }: { annotations: unknown }) {
  if (!isRecord(annotations)) return null;
  const declared = hints.filter((hint) => typeof annotations[hint.key] === "boolean");
  if (declared.length === 0) return null;
  return (
    <div className="flex flex-wrap gap-1">
      {declared.map((hint) => {
        const value = annotations[hint.key] as boolean;
        return (
          <Badge
            key={hint.key}
            tone="slate"
            title={`${hint.key}: ${value} — declared by the server itself. Hints are untrusted: Switchboard enforces the effect class an admin sets, not these.`}
          >
            {value ? hint.yes : hint.no}
            <span className="text-[10px] uppercase tracking-wide text-slate-600">hint</span>
          </Badge>
        );
      })}
    </div>
  );
}

const effects: Record<NonNullable<ToolDto["effect"]>, Tone> = {
  read: "green",
  write: "amber",
  "external-write": "amber",
  destructive: "red",
};

/** The effect class Switchboard enforces (set by an admin), as opposed to the server's hints. */
export function EffectBadge({ effect }: { effect: ToolDto["effect"] }) {
  if (effect === null) {
    return (
      <Badge tone="neutral" title="No admin has classified this tool yet; it is enforced as external-write.">
        unclassified
      </Badge>
    );
  }
  return (
    <Badge tone={effects[effect]} title="Enforced effect class, set by an admin">
      effect: {effect}
    </Badge>
  );
}

export function ConflictBadge({ conflicts }: { conflicts: ToolDto["conflictsWith"] }) {
  if (conflicts.length === 0) return null;
  const others = conflicts.map((c) => `${c.serverName}/${c.toolName}`).join(", ");
  return (
    <Badge tone="red" title={`The same gateway name is also used by ${others}`}>
      name conflict
    </Badge>
  );
}
