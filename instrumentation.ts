/**
 * Runs once per server process: open (and migrate) the database at start, so a misconfiguration
 * shows up in the log at once instead of on the first request.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  // First: a SIGTERM while the runtime starts is a graceful shutdown too.
  const { installShutdownHandlers } = await import("@/lib/runtime/shutdown");
  installShutdownHandlers();
  const { startRuntime } = await import("@/lib/runtime/start");
  const { registerGatewayEntry } = await import("@/lib/gateway/http/entry");
  registerGatewayEntry();
  await startRuntime();
}
