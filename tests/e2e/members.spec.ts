import { admin, expect, signedOutContext, test } from "./fixtures";
import { signOut } from "./shell";

const viewer = { name: "Vic Viewer", email: "vic@example.com", password: "viewer password 1" };

// The first test changes who is in the shared default workspace, and tries to demote its last
// admin: whatever happened, the workspace is left with its admin, and without the viewer.
test.afterEach(async ({ api }) => {
  const { members } = (await (await api.get("/api/v1/members")).json()) as {
    members: { userId: string; email: string; role: string }[];
  };
  const self = members.find((m) => m.email === admin.email);
  if (self && self.role !== "admin")
    await api.patch(`/api/v1/members/${self.userId}`, { data: { role: "admin" } });
  const left = members.find((m) => m.email === viewer.email);
  if (left) await api.delete(`/api/v1/members/${left.userId}`);
});

test("an admin invites a viewer, who sees no mutation controls and whose forged requests are refused", async ({
  page,
  browser,
  api,
}) => {
  await page.goto("/settings/members");
  await expect(page.getByTestId(`member-${admin.email}`)).toContainText("admin");
  await page.getByLabel("Role", { exact: true }).selectOption("viewer");
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const link = await page.getByLabel("Invitation link").inputValue();
  expect(link).toMatch(/\/invite\/[\w-]+$/);
  const pending = page.getByRole("region", { name: "Pending invitations" });
  await expect(pending.getByRole("row")).toHaveCount(2); // the heading row and this link
  await expect(pending).toContainText("viewer");
  await expect(pending).toContainText(admin.name);

  // The viewer opens the link in their own browser, creates an account and joins.
  const viewerContext = await signedOutContext(browser);
  const viewerPage = await viewerContext.newPage();
  await viewerPage.goto(new URL(link).pathname);
  await expect(viewerPage.getByRole("heading", { name: "Join Default workspace" })).toBeVisible();
  await viewerPage.getByRole("textbox", { name: "Your name" }).fill(viewer.name);
  await viewerPage.getByRole("textbox", { name: "Email" }).fill(viewer.email);
  await viewerPage.getByLabel("Password").fill(viewer.password);
  await viewerPage.getByRole("button", { name: "Create account and join" }).click();
  await expect(viewerPage.getByRole("heading", { name: "Overview" })).toBeVisible();

  // A used link cannot be used twice, and is no longer pending.
  const reuse = await browser.newPage({ storageState: { cookies: [], origins: [] } });
  await reuse.goto(new URL(link).pathname);
  await expect(reuse.getByRole("heading", { name: "Invitation not valid" })).toBeVisible();
  await page.reload();
  await expect(pending).toHaveCount(0);

  // A link that went astray is revoked before anyone uses it.
  await page.getByLabel("Role", { exact: true }).selectOption("admin");
  await page.getByRole("button", { name: "Create invitation link" }).click();
  await expect(pending).toContainText("admin");
  const astray = await page.getByLabel("Invitation link").inputValue();
  expect(astray).not.toBe(link);
  await pending.getByRole("button", { name: "Revoke the admin invitation" }).click();
  await page
    .getByRole("dialog", { name: "Revoke this admin invitation?" })
    .getByRole("button", { name: "Revoke invitation" })
    .click();
  await expect(pending).toHaveCount(0);
  await reuse.goto(new URL(astray).pathname);
  await expect(reuse.getByRole("heading", { name: "Invitation not valid" })).toBeVisible();
  await reuse.close();

  // Read-only: the servers are listed, but there is nothing to add, edit or delete.
  await viewerPage.goto("/servers");
  await expect(viewerPage.getByTestId("server-row-local-tools")).toBeVisible();
  await expect(viewerPage.getByRole("link", { name: "Add server" })).toHaveCount(0);
  await expect(viewerPage.getByRole("button", { name: /Delete/ })).toHaveCount(0);
  await expect(viewerPage.getByRole("link", { name: /Edit/ })).toHaveCount(0);
  await viewerPage.goto("/servers/new");
  await expect(viewerPage).toHaveURL(/\/servers$/);

  // Forged requests with the viewer's own session are refused by the server, and change nothing.
  const create = await viewerPage.request.post("/api/v1/servers", {
    data: { name: "sneaky", transport: "stdio", command: "node" },
  });
  expect(create.status()).toBe(403);
  expect((await create.json()).error.message).toMatch(/admin role/);
  const remove = await viewerPage.request.delete("/api/v1/servers/local-tools");
  expect(remove.status()).toBe(403);
  const names = ((await (await api.get("/api/v1/servers")).json()).servers as { name: string }[]).map(
    (s) => s.name,
  );
  expect(names).toContain("local-tools");
  expect(names).not.toContain("sneaky");

  // The admin sees the new member, and removes them after a confirmation: access ends at once.
  await page.reload();
  const member = page.getByTestId(`member-${viewer.email}`);
  const role = member.getByLabel(`Role of ${viewer.name}`);
  await expect(role).toHaveValue("viewer");

  // Made an approver in the dashboard, the member may decide approvals (none by that id: 404).
  await role.selectOption("approver");
  await expect
    .poll(async () => {
      const { members } = (await (await api.get("/api/v1/members")).json()) as {
        members: Array<{ email: string; role: string }>;
      };
      return members.find((m) => m.email === viewer.email)?.role;
    })
    .toBe("approver");
  await page.reload();
  await expect(role).toHaveValue("approver");
  expect((await viewerPage.request.post("/api/v1/approvals/none/approve", { data: {} })).status()).toBe(404);

  // The last admin cannot be demoted; the page says why.
  await page.getByTestId(`member-${admin.email}`).getByLabel(`Role of ${admin.name}`).selectOption("viewer");
  await expect(page.getByTestId(`member-${admin.email}`).getByRole("alert")).toContainText(
    "at least one admin",
  );
  await member.getByRole("button", { name: `Remove ${viewer.name}` }).click();
  const confirm = page.getByRole("dialog", { name: `Remove ${viewer.name} from this workspace?` });
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(member).toBeVisible();
  await member.getByRole("button", { name: `Remove ${viewer.name}` }).click();
  await confirm.getByRole("button", { name: "Remove member" }).click();
  await expect(member).toHaveCount(0);
  const after = await viewerPage.request.get("/api/v1/servers");
  expect(after.status()).toBeGreaterThanOrEqual(400);
  expect(after.status()).toBeLessThan(500);
  await viewerContext.close();
});

test("sign out, a wrong password is refused, the right one signs in", async ({ browser }) => {
  const context = await signedOutContext(browser);
  const page = await context.newPage();
  await page.goto("/servers");
  await expect(page).toHaveURL(/\/sign-in$/);

  await page.getByRole("textbox", { name: "Email" }).fill(admin.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Wrong email or password.")).toBeVisible();

  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();

  await signOut(page);
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/servers");
  await expect(page).toHaveURL(/\/sign-in$/);
  await context.close();
});
