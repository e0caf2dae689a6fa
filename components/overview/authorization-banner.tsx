import Link from "next/link";
import type { ServerDto } from "@/lib/servers/types";

/**
 * Servers whose OAuth sign-in must be renewed by a person: nothing retries them, so they are named
 * up front, each linking to its page, where an admin clicks Connect.
 */
export function NeedsAuthorizationBanner({ servers }: { servers: ServerDto[] }) {
  const waiting = servers.filter((server) => server.status === "needs-authorization");
  if (waiting.length === 0) return null;
  return (
    <div
      role="alert"
      data-testid="overview-needs-authorization"
      className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <p className="font-medium">
        {waiting.length === 1
          ? "A server needs authorization: its tool calls fail until an admin connects it."
          : `${waiting.length} servers need authorization: their tool calls fail until an admin connects them.`}
      </p>
      <ul className="mt-1.5 flex flex-wrap gap-x-4 gap-y-1" aria-label="Servers that need authorization">
        {waiting.map((server) => (
          <li key={server.id}>
            <Link
              href={`/servers/${server.name}`}
              className="font-medium text-amber-900 underline hover:text-amber-700"
            >
              {server.displayName ?? server.name}
            </Link>{" "}
            <span className="text-xs text-amber-800">→ Connect</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
