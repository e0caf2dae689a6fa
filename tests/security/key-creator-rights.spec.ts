import type { APIRequestContext } from "@playwright/test";
import { errorOf, expect, initializeGateway, joinAs, test } from "./fixtures";

/*
 * The attack: an admin created an admin key, was demoted to viewer and then removed from the
 * workspace; the key still created an admin invitation and listed the workspace's secrets. A key
 * now acts with at most its creator's current role: it stops when they are demoted below what it
 * needs, and for good once they are removed — the refusal says why, the Keys page shows it, and
 * the audit log records the deactivation.
 */

type Member = { userId: string; email: string };

async function memberId(owner: APIRequestContext, email: string): Promise<string> {
  const listed = await owner.get("/api/v1/members");
  const { members } = (await listed.json()) as { members: Member[] };
  const member = members.find((m) => m.email === email);
  if (!member) throw new Error(`${email} is not a member`);
  return member.userId;
}

test("an admin's key loses its rights when the admin is demoted, and stops when they are removed", async ({
  browser,
  owner,
  playwright,
  baseURL,
}) => {
  const ada = await joinAs(browser, owner, {
    name: "Ada Keymaker",
    email: "ada.keymaker@example.com",
    role: "admin",
  });
  // A second admin, so the workspace may lose Ada as one; Bo later reads the Keys page.
  const bo = await joinAs(browser, owner, {
    name: "Bo Reviewer",
    email: "bo.reviewer@example.com",
    role: "admin",
  });
  const created = await ada.request.post("/api/v1/api-keys", {
    data: { name: "ada-automation", scopes: ["admin"] },
    headers: { Origin: baseURL as string },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { key } = (await created.json()) as { key: string };
  const asKey = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${key}` },
  });
  // While Ada is an admin, her key is too.
  expect((await asKey.get("/api/v1/secrets")).status()).toBe(200);

  const pendingInvitations = async () => {
    const listed = await owner.get("/api/v1/invitations");
    return ((await listed.json()) as { invitations: unknown[] }).invitations.length;
  };
  const pendingBefore = await pendingInvitations();
  const adaId = await memberId(owner, "ada.keymaker@example.com");
  const demoted = await owner.patch(`/api/v1/members/${adaId}`, { data: { role: "viewer" } });
  expect(demoted.status(), await demoted.text()).toBe(200);

  const inviteAsViewer = await asKey.post("/api/v1/invitations", { data: { role: "admin" } });
  expect(inviteAsViewer.status()).toBe(403);
  expect((await errorOf(inviteAsViewer)).message).toMatch(/Ada Keymaker.*is now a viewer/);
  const secretsAsViewer = await asKey.get("/api/v1/secrets");
  expect(secretsAsViewer.status()).toBe(403);
  expect((await errorOf(secretsAsViewer)).message).toMatch(/Ada Keymaker.*is now a viewer/);

  const removed = await owner.delete(`/api/v1/members/${adaId}`);
  expect(removed.status(), await removed.text()).toBe(204);

  const inviteAfterRemoval = await asKey.post("/api/v1/invitations", { data: { role: "admin" } });
  expect(inviteAfterRemoval.status()).toBe(401);
  expect((await errorOf(inviteAfterRemoval)).message).toMatch(
    /Ada Keymaker.*no longer a member of this workspace/,
  );
  const secretsAfterRemoval = await asKey.get("/api/v1/secrets");
  expect(secretsAfterRemoval.status()).toBe(401);

  // The key created no invitation at any point after the demotion.
  expect(await pendingInvitations()).toBe(pendingBefore);

  // Another admin sees why on the Keys page.
  const page = await bo.newPage();
  await page.goto("/settings/api-keys");
  const row = page.getByTestId("api-key-ada-automation");
  await expect(row).toContainText("Inactive");
  await expect(row).toContainText("creator Ada Keymaker was removed");

  // The audit log records both steps of the key's deactivation.
  const audit = await owner.get("/api/v1/audit?action=api_key.deactivated");
  const { entries } = (await audit.json()) as { entries: Array<{ subject: string; detail: string }> };
  const details = entries.filter((e) => e.subject === "key ada-automation").map((e) => e.detail);
  expect(details).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/Ada Keymaker is now a viewer/),
      expect.stringMatching(/Ada Keymaker was removed/),
    ]),
  );

  await asKey.dispose();
  await ada.close();
  await bo.close();
});

test("a principal's gateway key made by an admin keeps working after the admin is removed", async ({
  browser,
  owner,
  playwright,
  baseURL,
}) => {
  const cy = await joinAs(browser, owner, {
    name: "Cy Agentmaker",
    email: "cy.agents@example.com",
    role: "admin",
  });
  const origin = { Origin: baseURL as string };
  const principal = await cy.request.post("/api/v1/principals", {
    data: { name: "cy-agent" },
    headers: origin,
  });
  expect(principal.status(), await principal.text()).toBe(201);
  const { principal: agent } = (await principal.json()) as { principal: { id: string } };
  const keyed = await cy.request.post(`/api/v1/principals/${agent.id}/keys`, {
    data: { name: "cy-agent key" },
    headers: origin,
  });
  expect(keyed.status(), await keyed.text()).toBe(201);
  const { key } = (await keyed.json()) as { key: string };

  const cyId = await memberId(owner, "cy.agents@example.com");
  expect((await owner.delete(`/api/v1/members/${cyId}`)).status()).toBe(204);

  // The agent's key is the agent's, not Cy's rights: it still reaches the gateway (with its grants).
  const gateway = await playwright.request.newContext({ baseURL });
  const initialized = await initializeGateway(gateway, key);
  expect(initialized.status(), await initialized.text()).toBe(200);
  // …but it never had more than the gateway: the REST API refuses it.
  const rest = await gateway.get("/api/v1/secrets", { headers: { Authorization: `Bearer ${key}` } });
  expect(rest.status()).toBe(403);
  await gateway.dispose();
  await cy.close();
});
