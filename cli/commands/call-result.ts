import type { CallResult, CallWire } from "../wire-types";

/**
 * How a call ended, as the CLI prints it: its status, except that a tool that answered `isError` reads
 * "tool error" (never "succeeded"). A server older than the `outcome` field is read from `isError`.
 */
export function outcomeText(
  call: Pick<CallWire, "status" | "isError"> & { outcome?: CallWire["outcome"] },
): string {
  const outcome = call.outcome ?? (call.status === "succeeded" && call.isError ? "tool_error" : call.status);
  return outcome === "tool_error" ? "tool error" : outcome;
}

/** A tool result for people: its text, with non-text parts named rather than dumped. */
export function describeResult(result: CallResult | null | undefined): string {
  if (!result) return "(no result)";
  const parts = (result.content ?? []).map((item) => {
    switch (item.type) {
      case "text":
        return String((item as { text?: unknown }).text ?? "");
      case "image":
      case "audio":
        return `[${item.type}${"mimeType" in item && item.mimeType ? `: ${item.mimeType}` : ""}]`;
      case "resource": {
        const resource = (item as { resource?: { uri?: string; text?: string } }).resource;
        return resource?.text ?? `[resource: ${resource?.uri ?? "?"}]`;
      }
      case "resource_link":
        return `[link: ${String((item as { uri?: unknown }).uri ?? "?")}]`;
      default:
        return `[${item.type}]`;
    }
  });
  if (parts.length === 0 && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent, null, 2);
  }
  return parts.join("\n") || "(empty result)";
}
