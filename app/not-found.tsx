import Link from "next/link";

export default function NotFound() {
  return (
    <main className="grid min-h-screen place-items-center px-6">
      <div className="text-center">
        <p className="text-sm font-semibold text-indigo-600">404</p>
        <h1 className="mt-2 text-2xl font-semibold text-slate-900">This page does not exist</h1>
        <p className="mt-2 text-sm text-slate-600">It may have been renamed or deleted.</p>
        <Link
          href="/servers"
          className="mt-6 inline-block text-sm font-medium text-indigo-600 hover:text-indigo-500"
        >
          Back to servers →
        </Link>
      </div>
    </main>
  );
}
