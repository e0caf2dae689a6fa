import { createAgent } from "./agents";
import { expect, test } from "./fixtures";

/**
 * Settings → Limits, as an admin uses it: a value out of range is refused beside its cell with the
 * range; defaults and an override are saved and read back; an agent over its override is refused
 * with 429. The spec restores the workspace's limits (none) at the end.
 */
test("an admin sets limits in Settings → Limits; an agent over them is refused at once", async ({
  page,
  api,
  playwright,
  baseURL,
}) => {
  const name = `e2e-limited-${Math.random().toString(36).slice(2, 8)}`;
  const { agent } = await createAgent(api, playwright, { baseURL, name, patterns: ["local-tools__echo"] });
  try {
    await page.goto("/settings/limits");
    await expect(page.getByText("No overrides: the defaults apply to all.")).toBeVisible();

    const perMinute = page.getByRole("textbox", { name: "Calls per minute for every principal" });
    await perMinute.fill("0");
    await page.getByRole("button", { name: "Save limits" }).click();
    await expect(page.getByText("Nothing was saved: correct the fields marked below.")).toBeVisible();
    await expect(page.getByText("Calls per minute must be a whole number from 1 to 100,000")).toBeVisible();
    await expect(perMinute).toHaveAttribute("aria-invalid", "true");

    await perMinute.fill("600");
    await page.getByRole("textbox", { name: "Waiting for approval for every principal" }).fill("5");
    await page.getByRole("button", { name: "Add a principal override" }).click();
    await page.getByRole("combobox", { name: "Which principal" }).selectOption(name);
    await page.getByRole("textbox", { name: `Calls per minute for ${name}` }).fill("1");
    await page.getByRole("button", { name: "Save limits" }).click();
    await expect(page.getByText("Saved. Calls from now on are held to these limits.")).toBeVisible();

    await page.reload();
    await expect(page.getByRole("textbox", { name: "Calls per minute for every principal" })).toHaveValue(
      "600",
    );
    await expect(page.getByRole("textbox", { name: `Calls per minute for ${name}` })).toHaveValue("1");
    await page.screenshot({ path: "test-results/limits-settings.png", fullPage: true });

    const read = (await (await api.get("/api/v1/policy/limits")).json()) as {
      policy: { principal: Record<string, unknown>; principals: Record<string, unknown> };
    };
    expect(read.policy.principal).toMatchObject({ callsPerMinute: 600, pendingApprovals: 5 });
    expect(read.policy.principals[name]).toEqual({ callsPerMinute: 1 });

    // One a minute for this agent: the second call is refused at once, with when to try again.
    const call = () =>
      agent.post("/api/v1/calls", { data: { tool: "local-tools__echo", arguments: { text: "hi" } } });
    expect((await call()).status()).not.toBe(429);
    const refused = await call();
    expect(refused.status()).toBe(429);
    expect(Number(refused.headers()["retry-after"])).toBeGreaterThanOrEqual(1);
  } finally {
    await api.put("/api/v1/policy/limits", { data: {} });
    await agent.dispose();
  }
});
