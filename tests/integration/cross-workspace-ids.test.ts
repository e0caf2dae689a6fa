import { randomBytes, randomUUID } from "node:crypto";
import { asc, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DELETE as revokeApiKeyRoute } from "@/app/api/v1/api-keys/[id]/route";
import { POST as approveRoute } from "@/app/api/v1/approvals/[id]/approve/route";
import { POST as denyRoute } from "@/app/api/v1/approvals/[id]/deny/route";
import { GET as getCallRoute } from "@/app/api/v1/calls/[id]/route";
import { GET as waitRoute } from "@/app/api/v1/calls/[id]/wait/route";
import { POST as postCallRoute } from "@/app/api/v1/calls/route";
import { DELETE as revokeInvitationRoute } from "@/app/api/v1/invitations/[id]/route";
import { PATCH as patchMemberRoute, DELETE as removeMemberRoute } from "@/app/api/v1/members/[userId]/route";
import { GET as getGrantsRoute, PUT as putGrantsRoute } from "@/app/api/v1/principals/[id]/grants/route";
import { DELETE as revokePrincipalKeyRoute } from "@/app/api/v1/principals/[id]/keys/[keyId]/route";
import { POST as postPrincipalKeyRoute } from "@/app/api/v1/principals/[id]/keys/route";
import { DELETE as deletePrincipalRoute, GET as getPrincipalRoute } from "@/app/api/v1/principals/[id]/route";
import { GET as getToolRoute, PATCH as patchToolRoute } from "@/app/api/v1/tools/[id]/route";
import {
  apiKeys,
  approvals,
  auditEvents,
  calls,
  grants,
  invitations,
  memberships,
  principals,
  tools,
} from "@/db/schema";
import { createInvitation } from "@/lib/auth/invitations";
import type { DatabaseDriver } from "@/lib/db/client";
import { createWorkspace } from "@/lib/tenancy/workspaces";
import { type CallsWorld, openCallsWorld } from "../fixtures/calls-world";
import { createTestAccount, createTestAgent, createTestApiKey, drivers } from "../fixtures/databases";
import { bearer, type Json, sendTo } from "../fixtures/route-request";

/*
 * Every route addressed by an id, called by workspace B (its admin key, its admin's session) on an
 * id of workspace A: the answer is the 404 an id that exists nowhere gets — word for word, so it
 * says nothing about whether A has such a row — and A's row is as it was. Then A's own admin
 * makes the same request and it works, so each 404 came from the workspace check and not from a
 * request that was wrong anyway. On PGlite and PostgreSQL.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterAll(() => {
  vi.unstubAllEnvs();
});

type HeaderMap = Record<string, string>;
type Params = Record<string, string>;
type Answer = { status: number; body: Json };

/** Workspace A's rows the requests aim at (filled in beforeAll). */
type TargetsOfA = {
  callToApprove: string;
  callToDeny: string;
  approvalToDeny: string;
  tool: string;
  principal: string;
  principalKey: string;
  doomedPrincipal: string;
  invitation: string;
  apiKey: string;
  member: string;
};

type Case = {
  name: string;
  /** the route's params, from A's rows (and B's own, for a request that mixes the two) */
  params: (a: TargetsOfA, b: { principal: string }) => Params;
  send: (headers: HeaderMap, params: Params) => Promise<Answer>;
  /** what must not change when B asks */
  rowsOfA: (a: TargetsOfA) => Promise<unknown>;
  /** A's own admin making the same request gets this; absent when the request mixes workspaces */
  ownStatus?: number;
};

describe.each(drivers)("ids of another workspace on %s", (driver: DatabaseDriver) => {
  let world: CallsWorld;
  const a = {} as TargetsOfA;
  const b = { principal: "" };
  let adminOfA: HeaderMap;
  let callersFromB: Array<{ who: string; headers: HeaderMap }>;

  const db = () => world.handle.db;
  const one = async <T>(rows: Promise<T[]>) => (await rows)[0];
  const callRow = (id: string) =>
    one(
      db()
        .select({ status: calls.status, approval: approvals.status, decidedBy: approvals.decidedBy })
        .from(calls)
        .innerJoin(approvals, eq(approvals.callId, calls.id))
        .where(eq(calls.id, id)),
    );
  const principalRows = async (id: string) => ({
    principal: await one(db().select().from(principals).where(eq(principals.id, id))),
    keys: await db()
      .select({ id: apiKeys.id, revokedAt: apiKeys.revokedAt })
      .from(apiKeys)
      .where(eq(apiKeys.principalId, id))
      .orderBy(asc(apiKeys.id)),
    grants: (
      await db()
        .select({ pattern: grants.toolPattern })
        .from(grants)
        .where(eq(grants.principalId, id))
        .orderBy(asc(grants.toolPattern))
    ).map((g) => g.pattern),
  });
  const membershipsOf = (userId: string) =>
    db()
      .select({ tenantId: memberships.tenantId, role: memberships.role })
      .from(memberships)
      .where(eq(memberships.userId, userId));
  const auditCountOfA = async () =>
    (await one(db().select({ n: count() }).from(auditEvents).where(eq(auditEvents.tenantId, world.tenantId))))
      ?.n;

  const cases: Case[] = [
    {
      name: "GET /api/v1/calls/{id}",
      params: (a) => ({ id: a.callToApprove }),
      send: (headers, params) => sendTo(getCallRoute, `/api/v1/calls/${params.id}`, { headers, params }),
      rowsOfA: (a) => callRow(a.callToApprove),
      ownStatus: 200,
    },
    {
      name: "GET /api/v1/calls/{id}/wait",
      params: (a) => ({ id: a.callToApprove }),
      // B's wait must be refused at once; A's own returns the call as it is (nothing to wait for).
      send: (headers, params) =>
        sendTo(waitRoute, `/api/v1/calls/${params.id}/wait?timeoutSeconds=${headers === adminOfA ? 0 : 5}`, {
          headers,
          params,
        }),
      rowsOfA: (a) => callRow(a.callToApprove),
      ownStatus: 200,
    },
    {
      name: "POST /api/v1/approvals/{id}/approve (the call's id)",
      params: (a) => ({ id: a.callToApprove }),
      send: (headers, params) =>
        sendTo(approveRoute, `/api/v1/approvals/${params.id}/approve`, {
          method: "POST",
          headers,
          body: { reason: "approved from elsewhere" },
          params,
        }),
      rowsOfA: (a) => callRow(a.callToApprove),
      ownStatus: 200,
    },
    {
      name: "POST /api/v1/approvals/{id}/deny (the approval's id)",
      params: (a) => ({ id: a.approvalToDeny }),
      send: (headers, params) =>
        sendTo(denyRoute, `/api/v1/approvals/${params.id}/deny`, {
          method: "POST",
          headers,
          body: { reason: "denied from elsewhere" },
          params,
        }),
      rowsOfA: (a) => callRow(a.callToDeny),
      ownStatus: 200,
    },
    {
      name: "GET /api/v1/tools/{id}",
      params: (a) => ({ id: a.tool }),
      send: (headers, params) => sendTo(getToolRoute, `/api/v1/tools/${params.id}`, { headers, params }),
      rowsOfA: (a) => one(db().select().from(tools).where(eq(tools.id, a.tool))),
      ownStatus: 200,
    },
    {
      name: "PATCH /api/v1/tools/{id}",
      params: (a) => ({ id: a.tool }),
      send: (headers, params) =>
        sendTo(patchToolRoute, `/api/v1/tools/${params.id}`, {
          method: "PATCH",
          headers,
          body: { enabled: false, effect: "read", approvalRule: "never" },
          params,
        }),
      rowsOfA: (a) => one(db().select().from(tools).where(eq(tools.id, a.tool))),
      ownStatus: 200,
    },
    {
      name: "GET /api/v1/principals/{id}",
      params: (a) => ({ id: a.principal }),
      send: (headers, params) =>
        sendTo(getPrincipalRoute, `/api/v1/principals/${params.id}`, { headers, params }),
      rowsOfA: (a) => principalRows(a.principal),
      ownStatus: 200,
    },
    {
      name: "GET /api/v1/principals/{id}/grants",
      params: (a) => ({ id: a.principal }),
      send: (headers, params) =>
        sendTo(getGrantsRoute, `/api/v1/principals/${params.id}/grants`, { headers, params }),
      rowsOfA: (a) => principalRows(a.principal),
      ownStatus: 200,
    },
    {
      name: "PUT /api/v1/principals/{id}/grants",
      params: (a) => ({ id: a.principal }),
      send: (headers, params) =>
        sendTo(putGrantsRoute, `/api/v1/principals/${params.id}/grants`, {
          method: "PUT",
          headers,
          body: { patterns: ["*"] },
          params,
        }),
      rowsOfA: (a) => principalRows(a.principal),
      ownStatus: 200,
    },
    {
      name: "POST /api/v1/principals/{id}/keys",
      params: (a) => ({ id: a.principal }),
      send: (headers, params) =>
        sendTo(postPrincipalKeyRoute, `/api/v1/principals/${params.id}/keys`, {
          method: "POST",
          headers,
          body: { name: "planted" },
          params,
        }),
      rowsOfA: (a) => principalRows(a.principal),
      ownStatus: 201,
    },
    {
      // B's own principal in the path, A's key after it: the key must be looked up in B too.
      name: "DELETE /api/v1/principals/{B's id}/keys/{A's keyId}",
      params: (a, b) => ({ id: b.principal, keyId: a.principalKey }),
      send: (headers, params) =>
        sendTo(revokePrincipalKeyRoute, `/api/v1/principals/${params.id}/keys/${params.keyId}`, {
          method: "DELETE",
          headers,
          params,
        }),
      rowsOfA: (a) => principalRows(a.principal),
    },
    {
      name: "DELETE /api/v1/principals/{id}/keys/{keyId}",
      params: (a) => ({ id: a.principal, keyId: a.principalKey }),
      send: (headers, params) =>
        sendTo(revokePrincipalKeyRoute, `/api/v1/principals/${params.id}/keys/${params.keyId}`, {
          method: "DELETE",
          headers,
          params,
        }),
      rowsOfA: (a) => principalRows(a.principal),
      ownStatus: 204,
    },
    {
      name: "DELETE /api/v1/principals/{id}",
      params: (a) => ({ id: a.doomedPrincipal }),
      send: (headers, params) =>
        sendTo(deletePrincipalRoute, `/api/v1/principals/${params.id}`, {
          method: "DELETE",
          headers,
          params,
        }),
      rowsOfA: (a) => principalRows(a.doomedPrincipal),
      ownStatus: 204,
    },
    {
      name: "DELETE /api/v1/invitations/{id}",
      params: (a) => ({ id: a.invitation }),
      send: (headers, params) =>
        sendTo(revokeInvitationRoute, `/api/v1/invitations/${params.id}`, {
          method: "DELETE",
          headers,
          params,
        }),
      rowsOfA: (a) => one(db().select().from(invitations).where(eq(invitations.id, a.invitation))),
      ownStatus: 204,
    },
    {
      name: "DELETE /api/v1/api-keys/{id}",
      params: (a) => ({ id: a.apiKey }),
      send: (headers, params) =>
        sendTo(revokeApiKeyRoute, `/api/v1/api-keys/${params.id}`, { method: "DELETE", headers, params }),
      rowsOfA: (a) => one(db().select().from(apiKeys).where(eq(apiKeys.id, a.apiKey))),
      ownStatus: 204,
    },
    {
      name: "PATCH /api/v1/members/{userId}",
      params: (a) => ({ userId: a.member }),
      send: (headers, params) =>
        sendTo(patchMemberRoute, `/api/v1/members/${params.userId}`, {
          method: "PATCH",
          headers,
          // B asks to make A's approver an admin; A's own admin (below) makes them a viewer.
          body: { role: headers === adminOfA ? "viewer" : "admin" },
          params,
        }),
      rowsOfA: (a) => membershipsOf(a.member),
      ownStatus: 200,
    },
    {
      name: "DELETE /api/v1/members/{userId}",
      params: (a) => ({ userId: a.member }),
      send: (headers, params) =>
        sendTo(removeMemberRoute, `/api/v1/members/${params.userId}`, { method: "DELETE", headers, params }),
      rowsOfA: (a) => membershipsOf(a.member),
      ownStatus: 204,
    },
  ];

  beforeAll(async () => {
    world = await openCallsWorld(driver);
    const { handle, tenantId } = world;
    adminOfA = bearer(await createTestApiKey(handle, ["admin"]));

    // Two calls of A's agent held for approval (fixture__record is an external write).
    const pendingCall = async () => {
      const posted = await sendTo(postCallRoute, "/api/v1/calls", {
        method: "POST",
        headers: bearer(world.agent.key),
        body: { tool: "fixture__record", arguments: { token: `t-${randomBytes(6).toString("hex")}` } },
      });
      expect(posted.body.call).toMatchObject({ status: "pending_approval" });
      return posted.body.call.id as string;
    };
    a.callToApprove = await pendingCall();
    a.callToDeny = await pendingCall();
    const approval = await one(
      db().select({ id: approvals.id }).from(approvals).where(eq(approvals.callId, a.callToDeny)),
    );
    a.approvalToDeny = approval?.id ?? "";
    a.tool = await world.toolId("local-tools__echo");
    const principal = await createTestAgent(handle.db, {
      tenantId,
      name: "a-target",
      patterns: ["local-tools__*"],
    });
    a.principal = principal.id;
    a.principalKey = principal.keyId;
    a.doomedPrincipal = (
      await createTestAgent(handle.db, { tenantId, name: "a-doomed", patterns: ["*"] })
    ).id;
    a.invitation = (await createInvitation(handle.db, { tenantId, input: { role: "admin" }, by: null })).id;
    // A key of its own to aim at, so that revoking it (A's own request, last) harms no caller.
    const dedicated = await createTestApiKey(handle, ["admin"]);
    a.apiKey =
      (
        await one(
          db()
            .select({ id: apiKeys.id })
            .from(apiKeys)
            .where(eq(apiKeys.prefix, dedicated.slice(0, 9))),
        )
      )?.id ?? "";
    a.member = world.approvers[1]?.userId ?? "";

    // Workspace B, created by an account of its own, with rows of its own.
    const ownerOfB = await createTestAccount(handle, { email: `owner-b-${driver}@example.com` });
    const workspaceB = await createWorkspace(handle.db, {
      userId: ownerOfB.userId,
      instanceOwner: true,
      input: { name: "Beta" },
    });
    b.principal = (
      await createTestAgent(handle.db, { tenantId: workspaceB.id, name: "b-agent", patterns: ["*"] })
    ).id;
    await createInvitation(handle.db, { tenantId: workspaceB.id, input: { role: "viewer" }, by: null });
    callersFromB = [
      { who: "B's admin key", headers: bearer(await createTestApiKey(handle, ["admin"], workspaceB.id)) },
      { who: "B's admin's session", headers: { cookie: ownerOfB.cookie } },
    ];
    for (const id of Object.values(a)) expect(id).not.toBe("");
  });
  afterAll(async () => {
    await world?.close();
  });

  for (const c of cases) {
    it(`${c.name}: B gets the 404 of an unknown id and A's row stays`, async () => {
      const params = c.params(a, b);
      const unknownParams = Object.fromEntries(Object.keys(params).map((k) => [k, randomUUID()]));
      const before = { rows: await c.rowsOfA(a), audit: await auditCountOfA() };
      expect(before.rows).toBeDefined();

      for (const { who, headers } of callersFromB) {
        const unknown = await c.send(headers, unknownParams);
        expect(unknown.status, `${who}, an unknown id`).toBe(404);
        const answer = await c.send(headers, params);
        expect({ who, status: answer.status, body: answer.body }).toEqual({
          who,
          status: 404,
          body: unknown.body,
        });
      }
      expect({ rows: await c.rowsOfA(a), audit: await auditCountOfA() }).toEqual(before);

      if (c.ownStatus !== undefined) {
        const own = await c.send(adminOfA, params);
        expect({ status: own.status, error: own.body.error }).toEqual({
          status: c.ownStatus,
          error: undefined,
        });
      }
    });
  }
});
