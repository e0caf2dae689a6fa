import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import type { Database } from "@/lib/db/client";
import { isAppError } from "@/lib/errors";
import { getDatabase } from "@/lib/runtime/process-db";
import { type Actor, resolveOperator } from "./actor";
import { roleCan } from "./permissions";
import { setupComesFirst } from "./setup";

export type PageContext = {
  db: Database;
  actor: Actor & { kind: "operator" };
  tenant: Actor["tenant"];
  canManage: boolean;
  canDecide: boolean;
};

/**
 * The signed-in operator for a dashboard page, once per request. Without a session: to the
 * first-run setup when nobody exists yet, else to sign-in. Pages never accept API keys.
 */
export const getPageContext = cache(async (): Promise<PageContext> => {
  const { db } = await getDatabase();
  try {
    const actor = await resolveOperator(db, await headers());
    return {
      db,
      actor,
      tenant: actor.tenant,
      canManage: roleCan(actor.role, "manage"),
      canDecide: roleCan(actor.role, "decide"),
    };
  } catch (error) {
    if (isAppError(error) && error.code === "unauthenticated") {
      redirect((await setupComesFirst(db)) ? "/setup" : "/sign-in");
    }
    if (isAppError(error) && error.code === "forbidden") redirect("/sign-in?reason=no-workspace");
    throw error;
  }
});
