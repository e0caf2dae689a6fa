import { isRecord } from "@/components/ui/format";
import { JsonView } from "../json-view";

const str = (value: unknown) => (typeof value === "string" ? value : null);

/** Approximate decoded size of base64 data, for the note that stands in for binary content. */
function sizeOf(base64: string | null): string | null {
  if (!base64) return null;
  const bytes = Math.floor((base64.length * 3) / 4);
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`;
}

/**
 * One MCP content item, shown for what it is: text as text (never as markup), binary items as a
 * note (the server's bytes are not rendered), resources by their URI.
 */
export function ContentBlock({ block }: { block: unknown }) {
  if (!isRecord(block)) return <Note>An item that is not an object (ignored).</Note>;
  switch (block.type) {
    case "text":
      return (
        <pre className="max-h-[28rem] overflow-auto whitespace-pre-wrap wrap-anywhere rounded-md bg-slate-50 p-3 font-mono text-xs leading-relaxed text-slate-800 ring-1 ring-slate-200">
          {str(block.text) ?? ""}
        </pre>
      );
    case "image":
    case "audio": {
      const details = [str(block.mimeType), sizeOf(str(block.data))].filter(Boolean).join(" · ");
      return (
        <Note>
          {block.type === "image" ? "Image" : "Audio"}
          {details ? ` (${details})` : ""}: not displayed here.
        </Note>
      );
    }
    case "resource": {
      const resource = isRecord(block.resource) ? block.resource : {};
      const body = str(resource.text);
      return (
        <div className="space-y-1">
          <Note>
            Embedded resource <code className="font-mono">{str(resource.uri) ?? "(no URI)"}</code>
            {body === null ? " (binary, not displayed)" : ""}
          </Note>
          {body !== null ? <ContentBlock block={{ type: "text", text: body }} /> : null}
        </div>
      );
    }
    case "resource_link":
      return (
        <Note>
          Link to resource <code className="font-mono">{str(block.uri) ?? "(no URI)"}</code>
          {str(block.name) ? ` · ${block.name}` : ""}
        </Note>
      );
    default:
      return (
        <div>
          <Note>Content of type “{String(block.type)}”:</Note>
          <JsonView value={block} label="Content item" />
        </div>
      );
  }
}

function Note({ children }: { children: React.ReactNode }) {
  return (
    <p className="rounded-md border border-dashed border-slate-300 px-3 py-2 text-sm text-slate-600">
      {children}
    </p>
  );
}
