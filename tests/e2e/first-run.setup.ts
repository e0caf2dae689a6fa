import { adminStorageState } from "../../playwright.config";
import { admin, expect, test } from "./fixtures";

test("first run: the first visitor creates the admin account and lands on the dashboard", async ({
  page,
}) => {
  await page.goto("/servers");
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole("heading", { name: "Welcome to Switchboard" })).toBeVisible();

  // A weak password is refused beside its field, and nothing is created.
  await page.getByRole("textbox", { name: "Your name" }).fill(admin.name);
  await page.getByRole("textbox", { name: "Email" }).fill(admin.email);
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create admin account" }).click();
  await expect(page.getByLabel("Password")).toHaveAccessibleDescription(/at least 10 characters/i);
  // Said once, there: no alert above the form repeating it.
  await expect(page.locator("form").getByRole("alert")).toHaveCount(0);

  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Create admin account" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.getByText(admin.name)).toBeVisible();

  // Setup happens once: afterwards /setup sends people to sign in.
  const again = await page.request.get("/setup", { maxRedirects: 0 });
  expect(again.status()).toBe(307);
  expect(again.headers().location).toContain("/sign-in");

  await page.context().storageState({ path: adminStorageState });
});

test("the instance owner lets owners run the suite's TypeScript fixture servers", async ({ api }) => {
  // Specs register servers from tests/fixtures/mcp-servers/*.ts as `node --import tsx <file> …`: an
  // interpreter option the default policy refuses unless an owner names it, as an owner would.
  const { policy } = (await (await api.get("/api/v1/instance/policy")).json()) as {
    policy: { stdio: { launchSpecs: unknown[] } };
  };
  policy.stdio.launchSpecs.push({
    program: "node",
    args: ["--import", "tsx", "{file}"],
    rest: true,
    audience: "owners",
    why: "The browser tests' TypeScript fixture servers.",
  });
  const saved = await api.put("/api/v1/instance/policy", { data: policy });
  expect(saved.status(), await saved.text()).toBe(200);
});
