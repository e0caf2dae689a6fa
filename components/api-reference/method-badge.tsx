import { Badge, type Tone } from "@/components/ui/badge";

const tones: Record<string, Tone> = {
  GET: "blue",
  POST: "green",
  PUT: "amber",
  PATCH: "amber",
  DELETE: "red",
};

/** The HTTP method, coloured by what it does: reads blue, creates green, changes amber, removals red. */
export function MethodBadge({ method }: { method: string }) {
  return (
    <span className="inline-block w-16 shrink-0 font-mono">
      <Badge tone={tones[method] ?? "neutral"}>{method}</Badge>
    </span>
  );
}
