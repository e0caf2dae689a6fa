import { JsonView } from "@/components/calls/json-view";
import { Badge } from "@/components/ui/badge";
import { isRecord, pluralize, textOf } from "@/components/ui/format";
import { preClass } from "../structured-content";

// Raster images only, as in content-blocks.tsx: an SVG is a document and could carry more than pixels.
const SAFE_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/**
 * What resources/read returned, each item as what it is: text as text, JSON as a table (raw one
 * click away), a raster image as an image, other bytes as their size and type with a download.
 * Everything comes from a downstream server: rendered as text, never as markup.
 */
export function ResourceContents({ contents }: { contents: unknown[] }) {
  if (contents.length === 0)
    return <p className="text-sm text-slate-500">The server returned no contents.</p>;
  return (
    <ol className="space-y-4" aria-label="Contents">
      {contents.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: contents have no identity but their order
        <li key={index} data-testid="resource-content">
          <ContentItem item={isRecord(item) ? item : {}} position={contents.length > 1 ? index + 1 : null} />
        </li>
      ))}
    </ol>
  );
}

function ContentItem({ item, position }: { item: Record<string, unknown>; position: number | null }) {
  const mime = textOf(item.mimeType);
  const text = typeof item.text === "string" ? item.text : null;
  const blob = typeof item.blob === "string" ? item.blob : null;
  return (
    <div>
      <div className="mb-1.5 flex flex-wrap items-center gap-2">
        {position === null ? null : <span className="text-xs text-slate-500">#{position}</span>}
        <code className="break-all font-mono text-xs text-slate-700">{textOf(item.uri) ?? "(no URI)"}</code>
        <Badge tone="slate">{mime ?? "no MIME type"}</Badge>
      </div>
      {text !== null ? <TextContent text={text} mime={mime} /> : null}
      {blob !== null ? <BlobContent blob={blob} mime={mime} uri={textOf(item.uri)} /> : null}
      {text === null && blob === null ? (
        <p className="text-sm text-slate-500">Neither text nor bytes: the server sent an empty item.</p>
      ) : null}
    </div>
  );
}

function TextContent({ text, mime }: { text: string; mime: string | null }) {
  if (mime && isJsonType(mime)) {
    const parsed = parseJson(text);
    if (parsed.ok) return <JsonView value={parsed.value} label="JSON content" />;
  }
  return <pre className={preClass}>{text}</pre>;
}

function BlobContent({ blob, mime, uri }: { blob: string; mime: string | null; uri: string | null }) {
  const size = base64Bytes(blob);
  const sizeText = pluralize(size, "byte");
  if (mime && SAFE_IMAGE_TYPES.has(mime)) {
    return (
      <figure>
        {/* biome-ignore lint/performance/noImgElement: a data URL from a server's resource, not a static asset */}
        <img
          src={`data:${mime};base64,${blob}`}
          alt={`The resource ${uri ?? ""}`}
          className="max-h-80 min-w-16 rounded-md ring-1 ring-slate-200 [image-rendering:pixelated]"
        />
        <figcaption className="mt-1 text-xs text-slate-500">
          {mime}, {sizeText}
        </figcaption>
      </figure>
    );
  }
  return (
    <p className="flex flex-wrap items-center gap-3 rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700 ring-1 ring-slate-200">
      <span>
        Binary, {sizeText}, {mime ?? "unknown type"}
      </span>
      <a
        // Always octet-stream: the browser saves the bytes and never renders them as a page.
        href={`data:application/octet-stream;base64,${blob}`}
        download={fileNameOf(uri)}
        className="text-xs font-medium text-indigo-700 hover:underline"
      >
        Download
      </a>
    </p>
  );
}

const isJsonType = (mime: string) => /^application\/(?:[\w.+-]+\+)?json(?:;|$)/i.test(mime);

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** The decoded size of base64 text, without decoding it. */
export function base64Bytes(base64: string): number {
  const clean = base64.replace(/\s/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.max(Math.floor((clean.length * 3) / 4) - padding, 0);
}

/** A file name for the download: the URI's last segment, letters, digits, dot, dash, underscore. */
function fileNameOf(uri: string | null): string {
  const last = (uri ?? "").split(/[/?#]/).filter(Boolean).pop() ?? "";
  const safe = last.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100);
  return safe && safe !== "." && safe !== ".." ? safe : "resource.bin";
}
