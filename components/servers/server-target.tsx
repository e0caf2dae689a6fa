/**
 * A server's target in a narrow column. Cutting the end made servers that differ only at the end
 * (`npx -y @modelcontextprotocol/server-…`, `https://mcp.example.com/…`) look alike, so the end
 * stays whole and the middle gives way: the start shrinks to an ellipsis first. The whole target
 * is in the tooltip and, for screen readers, in the text itself.
 */

// Enough of the end to tell servers apart: a script or package name, a URL's last segments.
const TAIL_LENGTH = 18;

/** The target split where the middle may give way: `head` shrinks, `tail` is always shown. */
export function splitTarget(target: string, tailLength = TAIL_LENGTH): { head: string; tail: string } {
  const chars = Array.from(target); // by code point, so an emoji or accented name is not split in two
  if (chars.length <= tailLength * 2) return { head: target, tail: "" };
  return { head: chars.slice(0, -tailLength).join(""), tail: chars.slice(-tailLength).join("") };
}

export function ServerTarget({ target }: { target: string }) {
  const { head, tail } = splitTarget(target);
  return (
    <code
      className="flex min-w-0 overflow-hidden font-mono text-xs text-slate-700"
      title={target}
      data-testid="server-target"
    >
      <span className="min-w-0 truncate">{head}</span>
      {tail ? <span className="shrink-0 whitespace-pre">{tail}</span> : null}
    </code>
  );
}
