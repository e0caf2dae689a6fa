export default function Loading() {
  return (
    <div role="status" aria-label="Loading server" className="animate-pulse">
      <div className="h-4 w-20 rounded bg-slate-200" />
      <div className="mt-3 h-7 w-64 rounded bg-slate-200" />
      <div className="mt-2 h-4 w-96 max-w-full rounded bg-slate-100" />
      <div className="mt-6 h-9 w-full rounded bg-slate-100" />
      <div className="mt-6 h-48 w-full rounded-lg bg-slate-100" />
    </div>
  );
}
