import { Badge } from "@/components/ui/badge";
import { isRecord, textOf } from "@/components/ui/format";
import { ContentBlocks } from "../content-blocks";

/** A prompt's messages as the conversation they are: who speaks, then what (content blocks). */
export function PromptMessages({ result }: { result: Record<string, unknown> }) {
  const messages = Array.isArray(result.messages) ? result.messages.filter(isRecord) : [];
  const description = textOf(result.description);
  return (
    <div>
      {description ? <p className="mb-3 text-sm text-slate-600">{description}</p> : null}
      {messages.length === 0 ? (
        <p className="text-sm text-slate-500">The prompt has no messages.</p>
      ) : (
        <ol className="space-y-3" aria-label="Messages">
          {messages.map((message, index) => {
            const role = textOf(message.role) ?? "unknown";
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: messages have no identity but their order
              <li key={index} data-testid="prompt-message" className={role === "assistant" ? "pl-6" : "pr-6"}>
                <Badge tone={role === "assistant" ? "blue" : "neutral"}>{role}</Badge>
                <div className="mt-1">
                  <ContentBlocks content={message.content === undefined ? [] : [message.content]} />
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
