import { getDatabase } from "@/lib/db/process-db";

/** The process runtime: today the database; the connection pool and event bus join it later. */
export async function startRuntime(): Promise<void> {
  try {
    const { driver } = await getDatabase();
    console.log(`[switchboard] database ready (${driver})`);
  } catch (error) {
    // Keep serving: every request retries the open and answers with a clear error meanwhile.
    console.error(`[switchboard] database not ready: ${(error as Error).message}`);
  }
}
