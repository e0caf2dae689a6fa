import type { ReactNode } from "react";
import { isRecord, textOf } from "@/components/ui/format";
import { preClass } from "./structured-content";

// Raster images only: an SVG is a document and could carry more than pixels.
const SAFE_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** The result's content items, in order. Text from the tool is shown as text, never as HTML. */
export function ContentBlocks({ content }: { content: unknown[] }) {
  if (content.length === 0) return <p className="text-sm text-slate-500">The tool returned no content.</p>;
  return (
    <ol className="space-y-2">
      {content.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: content items have no identity but their order
        <li key={index}>
          <ContentBlock item={item} />
        </li>
      ))}
    </ol>
  );
}

function ContentBlock({ item }: { item: unknown }) {
  if (!isRecord(item)) return <pre className={preClass}>{JSON.stringify(item)}</pre>;
  const text = textOf(item.text);
  switch (item.type) {
    case "text":
      return <pre className={preClass}>{text ?? ""}</pre>;
    case "image": {
      const mime = textOf(item.mimeType) ?? "";
      const data = textOf(item.data);
      if (data && SAFE_IMAGE_TYPES.has(mime)) {
        return (
          // biome-ignore lint/performance/noImgElement: a data URL from a tool result, not a static asset
          <img
            src={`data:${mime};base64,${data}`}
            alt="Returned by the tool"
            className="max-h-80 rounded-md ring-1 ring-slate-200"
          />
        );
      }
      return <Note>image ({mime || "unknown type"}) — not displayed</Note>;
    }
    case "audio":
      return <Note>audio ({textOf(item.mimeType) ?? "unknown type"}) — not played here</Note>;
    case "resource_link":
      return <Note>link to resource {textOf(item.uri) ?? "?"}</Note>;
    case "resource": {
      const resource = isRecord(item.resource) ? item.resource : {};
      return (
        <div>
          <Note>resource {textOf(resource.uri) ?? "?"}</Note>
          {textOf(resource.text) ? <pre className={`${preClass} mt-1`}>{String(resource.text)}</pre> : null}
        </div>
      );
    }
    default:
      return <pre className={preClass}>{JSON.stringify(item, null, 2)}</pre>;
  }
}

function Note({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-md bg-slate-50 px-3 py-2 text-xs text-slate-600 ring-1 ring-slate-200">
      {children}
    </p>
  );
}
