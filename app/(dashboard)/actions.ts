"use server";

import { cookies, headers } from "next/headers";
import { type ActionResult, runAction } from "@/lib/actions/action-result";
import { WORKSPACE_COOKIE } from "@/lib/auth/actor";
import { signOut } from "@/lib/auth/sign-in";
import { AppError } from "@/lib/errors";
import { createWorkspace, findMembership } from "@/lib/tenancy/workspaces";

const workspaceCookie = { httpOnly: true, sameSite: "lax" as const, path: "/", maxAge: 60 * 60 * 24 * 365 };

export async function switchWorkspaceAction(tenantId: unknown): Promise<ActionResult<null>> {
  return runAction("read", async ({ db, actor }) => {
    const membership = await findMembership(db, { userId: actor.userId, tenantId: String(tenantId) });
    // Same answer for "does not exist" and "not yours": ids from other workspaces reveal nothing.
    if (!membership) throw new AppError("not_found", "That workspace was not found.");
    (await cookies()).set(WORKSPACE_COOKIE, membership.tenant.id, workspaceCookie);
    return null;
  });
}

export async function createWorkspaceAction(input: unknown): Promise<ActionResult<null>> {
  // The instance policy says who may (instance owners only, unless an owner opened it to members).
  return runAction("read", async ({ db, actor }) => {
    const tenant = await createWorkspace(db, {
      userId: actor.userId,
      instanceOwner: actor.instanceOwner,
      input,
    });
    (await cookies()).set(WORKSPACE_COOKIE, tenant.id, workspaceCookie);
    return null;
  });
}

export async function signOutAction(): Promise<ActionResult<null>> {
  return runAction("read", async ({ db, actor }) => {
    await signOut(db, { headers: await headers(), userId: actor.userId });
    return null;
  });
}
