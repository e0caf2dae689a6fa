import { Fragment, type ReactNode } from "react";

/** The document's prose: paragraphs, `code` and **bold** — the only markdown it uses. */
export function RichText({ text, className }: { text: string; className?: string }) {
  const paragraphs = text.split(/\n{2,}/).filter((p) => p.trim() !== "");
  return (
    <>
      {paragraphs.map((paragraph, index) => (
        // Paragraphs of one fixed text: their order is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: static text, never reordered
        <p key={index} className={className}>
          <InlineText text={paragraph} />
        </p>
      ))}
    </>
  );
}

export function InlineText({ text }: { text: string }): ReactNode {
  return text.split(/(`[^`]+`|\*\*[^*]+\*\*)/).map((part, index) => {
    // biome-ignore lint/suspicious/noArrayIndexKey: pieces of one static string
    if (part.startsWith("`") && part.endsWith("`")) return <Code key={index}>{part.slice(1, -1)}</Code>;
    if (part.startsWith("**") && part.endsWith("**"))
      // biome-ignore lint/suspicious/noArrayIndexKey: pieces of one static string
      return <strong key={index}>{part.slice(2, -2)}</strong>;
    // biome-ignore lint/suspicious/noArrayIndexKey: pieces of one static string
    return <Fragment key={index}>{part}</Fragment>;
  });
}

export function Code({ children }: { children: ReactNode }) {
  return (
    <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.8em] text-slate-800">{children}</code>
  );
}
