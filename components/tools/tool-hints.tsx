import { HintBadges } from "@/components/ui/tool-badges";
import type { GovernedToolDto } from "./tool-queries";

/** What the server claims about its own tool: shown beside the effect editor, never enforced. */
export function ToolHints({ tool }: { tool: GovernedToolDto }) {
  const hasHints = Object.values(tool.hints).some((hint) => hint !== null);
  return (
    <div>
      <span
        className="block text-xs font-medium text-slate-500"
        title="Annotations the server declares about its own tool. A server can claim anything: Switchboard enforces the effect an admin sets."
      >
        Server hints <span className="text-amber-700">(untrusted)</span>
      </span>
      <div className="mt-1.5">
        {hasHints ? (
          <HintBadges annotations={tool.definition.annotations} />
        ) : (
          <span className="text-xs text-slate-400">none declared</span>
        )}
      </div>
      <p className="mt-1 text-xs text-slate-500">
        suggest <span className="font-medium text-slate-700">{tool.suggestedEffect}</span>
      </p>
    </div>
  );
}
