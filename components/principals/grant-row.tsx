import type { GovernedToolDto } from "@/components/tools/tool-queries";
import { Button } from "@/components/ui/button";
import { toolsMatching } from "./grant-patterns";

/** One pattern and what it covers today, expandable to the tool names. */
export function GrantRow(props: {
  pattern: string;
  tools: GovernedToolDto[];
  canManage: boolean;
  isBusy: boolean;
  onRemove: () => void;
}) {
  const matched = toolsMatching(props.pattern, props.tools);
  const count = `${matched.length} ${matched.length === 1 ? "tool" : "tools"}`;
  return (
    <li data-testid={`grant-${props.pattern}`} className="flex items-start gap-3 px-4 py-3">
      <div className="min-w-0 flex-1">
        <code className="font-mono text-sm font-medium text-slate-900">{props.pattern}</code>
        {props.pattern === "*" ? (
          <p className="mt-0.5 text-xs text-amber-800">
            Every tool of every server, including any added later.
          </p>
        ) : null}
        {matched.length === 0 ? (
          <p className="mt-0.5 text-xs text-slate-500">
            Matches no tool yet (it will, once such a tool is discovered).
          </p>
        ) : (
          <details className="mt-0.5 text-xs text-slate-600">
            <summary className="cursor-pointer hover:text-slate-900">matches {count}</summary>
            <ul className="mt-1 flex flex-wrap gap-1">
              {matched.map((tool) => (
                <li key={tool.id}>
                  <code className="rounded bg-slate-100 px-1 font-mono">{tool.gatewayName}</code>
                </li>
              ))}
            </ul>
          </details>
        )}
      </div>
      {props.canManage ? (
        <Button
          variant="ghost-danger"
          disabled={props.isBusy}
          aria-label={`Remove grant ${props.pattern}`}
          onClick={props.onRemove}
        >
          Remove
        </Button>
      ) : null}
    </li>
  );
}
