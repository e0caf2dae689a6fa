import type { APIRequestContext } from "@playwright/test";
import { createAgent } from "./agents";
import { expect, test } from "./fixtures";
import { expectTableCellsWhole } from "./layout";

/** Settings → API keys and Settings → Egress, as an admin uses them. */

test("an API key is shown once, works, and stops working when revoked — also from a stale page", async ({
  page,
  context,
  playwright,
  baseURL,
}) => {
  const name = `e2e-key-${Math.random().toString(36).slice(2, 8)}`;
  await page.goto("/settings/api-keys");

  // A nameless key is refused beside its field.
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByRole("textbox", { name: "Name" })).toHaveAttribute("aria-invalid", "true");

  await page.getByRole("textbox", { name: "Name" }).fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  const key = await page.getByRole("textbox", { name: "New API key" }).inputValue();
  expect(key).toMatch(/^sb_/);
  const row = page.getByTestId(`api-key-${name}`);
  await expect(row).toContainText("Active");
  await expect(row).toContainText("admin");
  await expectTableCellsWhole(page);

  const withKey = async (): Promise<APIRequestContext> =>
    playwright.request.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${key}` } });
  const client = await withKey();
  try {
    expect((await client.get("/api/v1/servers")).status()).toBe(200);

    // Shown once: after a reload only its prefix is on the page, and its use is noted (written
    // off the request path, so a reload may come first).
    await expect(row).toContainText("never");
    await expect(async () => {
      await page.reload();
      await expect(row).not.toContainText("never", { timeout: 1_000 });
    }).toPass();
    await expect(row.locator("time")).toHaveCount(2);
    await expect(row).toContainText(key.slice(0, 9));
    await expect(page.locator("body")).not.toContainText(key);

    // Revoked in another tab while this one still offers it: this one ends showing it revoked.
    const other = await context.newPage();
    await other.goto("/settings/api-keys");
    await other.getByRole("button", { name: `Revoke ${name}` }).click();
    await other
      .getByRole("dialog", { name: `Revoke the key "${name}"?` })
      .getByRole("button", { name: "Revoke key" })
      .click();
    await expect(other.getByTestId(`api-key-${name}`)).toContainText("Revoked");
    await other.close();
    expect((await client.get("/api/v1/servers")).status()).toBe(401);

    // Asked first; Escape leaves the key as it is.
    await page.getByRole("button", { name: `Revoke ${name}` }).click();
    const confirm = page.getByRole("dialog", { name: `Revoke the key "${name}"?` });
    await expect(confirm).toContainText("Anything using it stops working at once.");
    await page.keyboard.press("Escape");
    await expect(confirm).toBeHidden();
    await page.getByRole("button", { name: `Revoke ${name}` }).click();
    await confirm.getByRole("button", { name: "Revoke key" }).click();
    await expect(row).toContainText("Revoked");
    await expect(page.getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);
  } finally {
    await client.dispose();
  }
});

test("the egress policy refuses a bad host pattern beside its field, and a saved command list governs registration", async ({
  page,
  api,
}) => {
  const original = ((await (await api.get("/api/v1/policy/egress")).json()) as { policy: unknown }).policy;
  const instance = (
    (await (await api.get("/api/v1/instance/policy")).json()) as {
      policy: { stdio: { launchSpecs: unknown[] } };
    }
  ).policy;
  // A program the instance allows every workspace to run exactly so, and no other server uses.
  const server = {
    name: `egress-e2e-${Math.random().toString(36).slice(2, 8)}`,
    transport: "stdio",
    command: "cat",
    enabled: false,
  };
  try {
    const withCat = structuredClone(instance);
    withCat.stdio.launchSpecs.push({
      program: "cat",
      args: [],
      rest: false,
      audience: "everyone",
      why: "e2e",
    });
    expect((await api.put("/api/v1/instance/policy", { data: withCat })).status()).toBe(200);

    await page.goto("/settings/egress");
    const hosts = page.getByRole("textbox", { name: "Allowed hosts" });
    const savedHosts = await hosts.inputValue();
    await hosts.fill("not a host");
    await page.getByRole("button", { name: "Save policy" }).click();
    // Said once, beside the field, quoting the entry; above the form only that nothing was saved.
    await expect(page.getByTestId("field-error")).toHaveText(
      '"not a host": Use a host name (mcp.example.com), a wildcard (*.example.com or *), or an IP address.',
    );
    await expect(hosts).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Nothing was saved: correct the entries marked below.")).toBeVisible();
    await page.reload();
    await expect(hosts).toHaveValue(savedHosts);

    // A program outside the workspace's list is refused at registration, naming the rule, though
    // the instance policy allows it…
    const refused = await api.post("/api/v1/servers", { data: server });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /^Refused by the workspace's egress policy \(stdio\.allowedCommands\): the command "cat"/,
    );

    // …and accepted once an admin adds it here.
    const commands = page.getByRole("textbox", { name: "Allowed stdio commands" });
    await commands.fill(`${await commands.inputValue()}\ncat`);
    await page.getByRole("button", { name: "Save policy" }).click();
    await expect(page.getByText("Saved. New connections use this policy.")).toBeVisible();
    await page.reload();
    await expect(commands).toHaveValue(/cat/);
    const accepted = await api.post("/api/v1/servers", { data: server });
    expect(accepted.status(), await accepted.text()).toBe(201);
  } finally {
    await api.delete(`/api/v1/servers/${server.name}`);
    await api.put("/api/v1/policy/egress", { data: original });
    await api.put("/api/v1/instance/policy", { data: instance });
  }
});

test("approval rules: external-write stops needing approval once an admin says so; a bad expiry is refused beside its field", async ({
  page,
  api,
  playwright,
  baseURL,
}) => {
  const original = ((await (await api.get("/api/v1/policy/approvals")).json()) as { policy: unknown }).policy;
  const { agent } = await createAgent(api, playwright, {
    baseURL,
    name: `rules-e2e-${Math.random().toString(36).slice(2, 8)}`,
    patterns: ["local-tools__write_note"],
  });
  const callWriteNote = async () => {
    const response = await agent.post("/api/v1/calls", {
      data: { tool: "local-tools__write_note", arguments: { title: "rules e2e", text: "rules" } },
    });
    return ((await response.json()) as { call: { id: string; status: string } }).call;
  };
  try {
    // Unclassified write_note counts as external-write, which needs approval by default.
    const held = await callWriteNote();
    expect(held.status).toBe("pending_approval");
    await api.post(`/api/v1/approvals/${held.id}/deny`, { data: { reason: "e2e clean-up" } });

    await page.goto("/settings");
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Approvals" }).click();
    await expect(page).toHaveURL(/\/settings\/approvals$/);
    const expiry = page.getByRole("textbox", { name: "A waiting call expires after (seconds)" });
    await expect(expiry).toHaveAccessibleDescription("10 minutes");

    // A bad expiry: said beside the field, nothing saved.
    await expiry.fill("0");
    await page.getByRole("button", { name: "Save rules" }).click();
    await expect(expiry).toHaveAccessibleDescription("Must be at least 1 second.");
    await expect(page.getByText("Nothing was saved: correct the field marked below.")).toBeVisible();

    await expiry.fill("900");
    await expect(expiry).toHaveAccessibleDescription("15 minutes");
    const externalWrite = page.getByRole("checkbox", { name: /^external-write/ });
    await expect(externalWrite).toBeChecked();
    await externalWrite.uncheck();
    await page.getByRole("button", { name: "Save rules" }).click();
    await expect(page.getByText("Saved. Calls from now on follow these rules.")).toBeVisible();
    await page.reload();
    await expect(externalWrite).not.toBeChecked();
    await expect(expiry).toHaveValue("900");

    expect((await callWriteNote()).status).toBe("succeeded");
  } finally {
    await api.put("/api/v1/policy/approvals", { data: original });
    await agent.dispose();
  }
});

test("the audit log says who created and revoked a key, filters by kind, and pages on", async ({
  page,
  api,
}) => {
  const name = `audit-e2e-${Date.now().toString(36)}`;
  const created = await api.post("/api/v1/api-keys", { data: { name, scopes: ["admin"] } });
  expect(created.status()).toBe(201);
  const { apiKey } = (await created.json()) as { apiKey: { id: string } };
  expect((await api.delete(`/api/v1/api-keys/${apiKey.id}`)).status()).toBe(204);

  await page.goto("/settings");
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Audit log" }).click();
  await expect(page).toHaveURL(/\/settings\/audit$/);
  const revoked = page.getByTestId("audit-api_key.revoked").filter({ hasText: `key ${name}` });
  await expect(revoked).toContainText("Revoked an API key");
  await expect(revoked).toContainText("bootstrapAPI key"); // the admin key the test's API client uses
  await expect(page.getByTestId("audit-api_key.created").filter({ hasText: `key ${name}` })).toContainText(
    `${name} (admin)`,
  );
  await expectTableCellsWhole(page);

  // Sign-ins only: the admin's first run is there, key changes are not.
  await page.getByRole("navigation", { name: "Show" }).getByRole("link", { name: "Sign-ins" }).click();
  await expect(page).toHaveURL(/action=auth/);
  await expect(page.getByTestId("audit-auth.setup_completed")).toContainText("Ada Admin");
  await expect(page.getByTestId("audit-auth.setup_completed")).toContainText("Set up Switchboard");
  await expect(page.getByTestId("audit-api_key.revoked")).toHaveCount(0);

  // Pages of 50: with more entries than that, "Older entries" continues where the page ended.
  for (let i = 0; i < 50; i++) {
    const key = await api.post("/api/v1/api-keys", { data: { name: `${name}-${i}`, scopes: ["admin"] } });
    expect(key.status()).toBe(201);
  }
  await page.getByRole("navigation", { name: "Show" }).getByRole("link", { name: "API keys" }).click();
  await expect(page.getByText("50 entries shown")).toBeVisible();
  await page.getByRole("link", { name: "Older entries" }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(page.getByText(/\d+ entr(y|ies) shown \(older page\)/)).toBeVisible();
  await expect(page.getByTestId("audit-api_key.created").filter({ hasText: `key ${name}-49` })).toHaveCount(
    0,
  );
  await expect(revoked).toBeVisible();
});

test("a server's missing secret is set in Settings → Secrets, never shown back, and deleting it asks first", async ({
  page,
  api,
}) => {
  const suffix = Date.now().toString(36);
  const server = `secret-e2e-${suffix}`;
  const secret = `e2e-token-${suffix}`;
  const value = `value-${suffix}-do-not-show`;
  const registered = await api.post("/api/v1/servers", {
    data: {
      name: server,
      transport: "stdio",
      command: "node",
      args: ["server.js"],
      env: { TOKEN: { secret } },
      enabled: false,
    },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  try {
    await page.goto("/settings/secrets");
    const row = page.getByTestId(`secret-${secret}`);
    await expect(row).toContainText("Missing");
    await expect(row.getByRole("link", { name: server })).toBeVisible();

    // A bad name is said beside its field; nothing is stored.
    await page.getByRole("textbox", { name: "Name" }).fill("has spaces");
    await page.getByLabel("Value", { exact: true }).fill(value);
    await page.getByRole("button", { name: "Save secret" }).click();
    await expect(page.getByRole("textbox", { name: "Name" })).toHaveAccessibleDescription(/letters, digits/);

    await row.getByRole("button", { name: `Set the value of ${secret}` }).click();
    await expect(page.getByRole("textbox", { name: "Name" })).toHaveValue(secret);
    await expect(page.getByLabel("Value", { exact: true })).toBeFocused();
    await page.keyboard.type(value);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status")).toContainText(`Stored the value of ${secret}.`);
    await expect(row).toContainText("Set");
    await expect(page.getByLabel("Value", { exact: true })).toHaveValue("");
    await page.reload();
    await expect(page.locator("body")).not.toContainText(value);
    const detail = (await (await api.get(`/api/v1/servers/${server}`)).json()) as {
      server: { env: Record<string, { isSet?: boolean }> };
    };
    expect(detail.server.env.TOKEN?.isSet).toBe(true);

    await row.getByRole("button", { name: `Delete ${secret}` }).click();
    const dialog = page.getByRole("dialog", { name: `Delete the secret "${secret}"?` });
    await expect(dialog).toContainText(`${server} uses it`);
    await dialog.getByRole("button", { name: "Delete secret" }).click();
    await expect(row).toContainText("Missing");
  } finally {
    await api.delete(`/api/v1/servers/${server}`);
  }
});
