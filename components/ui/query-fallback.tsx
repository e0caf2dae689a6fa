import { Alert } from "@/components/ui/alert";

/** What a panel shows before its data arrives: a loading line, or why it could not be loaded. */
export function QueryFallback({ error, what }: { error: Error | null; what: string }) {
  if (error) return <Alert title={`Could not load ${what}`}>{error.message}</Alert>;
  return (
    <div role="status" className="flex items-center gap-2 py-6 text-sm text-slate-500">
      <span
        aria-hidden
        className="h-3 w-3 animate-spin rounded-full border-2 border-slate-300 border-t-slate-600"
      />
      Loading {what}…
    </div>
  );
}
