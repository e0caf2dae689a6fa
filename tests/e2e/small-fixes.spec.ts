import { tmpdir } from "node:os";
import path from "node:path";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { e2eBootstrapKey } from "../../playwright.config";
import { expect, test } from "./fixtures";
import { waitUntilReady } from "./servers-page";

/*
 * Issue #19, item 7: small things that read as broken, each checked where a person sees it.
 * The servers this spec registers are its own (removed at the end), so nothing else changes.
 */

const id = Math.random().toString(36).slice(2, 8);
const fixture = (file: string) => path.join(process.cwd(), "tests/fixtures/mcp-servers", file);
// Two servers whose command lines differ only at their very end, in a word with a space.
const logOf = (which: string) => path.join(tmpdir(), `small-${id}`, `${which} report.log`);
const alpha = { name: `small-${id}-alpha`, log: logOf("alpha") };
const beta = { name: `small-${id}-beta`, log: logOf("beta") };
const crash = `small-${id}-crash`;
const asAdmin = { Authorization: `Bearer ${e2eBootstrapKey}` };

const stdio = (name: string, args: string[], extra: Record<string, unknown> = {}) => ({
  name,
  transport: "stdio",
  command: "node",
  args: ["--import", "tsx", ...args],
  cwd: process.cwd(),
  ...extra,
});

async function register(api: APIRequestContext, data: Record<string, unknown>) {
  const response = await api.post("/api/v1/servers", { data });
  expect(response.status(), await response.text()).toBe(201);
}

test.describe("small fixes", () => {
  test.beforeAll(async ({ playwright, baseURL }) => {
    const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: asAdmin });
    await register(api, stdio(alpha.name, [fixture("calls-fixture.ts"), alpha.log]));
    await register(api, stdio(beta.name, [fixture("calls-fixture.ts"), beta.log], { enabled: false }));
    // Dies before the handshake: every health check fails.
    await register(api, stdio(crash, [fixture("pool-crash-on-start.ts")]));
    await api.dispose();
  });

  test.afterAll(async ({ playwright, baseURL }) => {
    const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: asAdmin });
    for (const name of [alpha.name, beta.name, crash]) await api.delete(`/api/v1/servers/${name}`);
    await api.dispose();
  });

  test("the page has an icon that is served, so no 404 on every page", async ({ page }) => {
    await page.goto("/");
    const icon = page.locator('head link[rel="icon"]');
    await expect(icon).toHaveCount(1);
    const href = (await icon.getAttribute("href")) ?? "";
    const response = await page.request.get(href);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("image/svg+xml");
    expect(await response.text()).toContain("<svg");
    await page.goto(href);
    await page.setViewportSize({ width: 64, height: 64 });
    await page.screenshot({ path: "test-results/small-fixes-icon.png" });
  });

  test("someone signed in who opens /sign-in lands on the dashboard, or where next says", async ({
    page,
  }) => {
    await page.goto("/sign-in");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign in" })).toHaveCount(0);

    await page.goto("/sign-in?next=/servers");
    await expect(page).toHaveURL(/\/servers$/);
    await expect(page.getByRole("heading", { name: "Servers", level: 1 })).toBeVisible();

    // A next that leaves the site is not followed.
    await page.goto("/sign-in?next=//example.com/steal");
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  test("servers whose targets share a long start are told apart in the list", async ({ page }) => {
    await page.goto("/servers");
    const targetOf = (name: string) => page.getByTestId(`server-row-${name}`).getByTestId("server-target");
    const alphaTarget = targetOf(alpha.name);
    const betaTarget = targetOf(beta.name);
    // The whole command line, quoted as a shell needs it, in the tooltip.
    await expect(alphaTarget).toHaveAttribute(
      "title",
      new RegExp(`calls-fixture\\.ts '${escapeRegExp(alpha.log)}'$`),
    );
    // The end of each is on screen, whole: that is where the two differ.
    const alphaEnd = await visibleEnd(alphaTarget);
    const betaEnd = await visibleEnd(betaTarget);
    expect(alphaEnd).toContain("alpha report.log'");
    expect(betaEnd).toContain("beta report.log'");
    await alphaTarget.scrollIntoViewIfNeeded();
    await page.screenshot({ path: "test-results/small-fixes-servers.png" });
  });

  test("the server header shows the command line quoted; schema rows show no safe-integer bounds", async ({
    page,
    api,
  }) => {
    await waitUntilReady(api, alpha.name);
    await page.goto(`/servers/${alpha.name}`);
    await expect(page.locator("header").getByTestId("server-target")).toHaveText(
      `node --import tsx ${fixture("calls-fixture.ts")} '${alpha.log}'`,
    );

    const big = page.getByTestId("tool-big");
    await big.getByText(`${alpha.name}__big`).click();
    const schema = big.getByRole("table");
    await expect(schema.getByRole("row", { name: /^bytes integer required/ })).toBeVisible();
    await expect(schema).not.toContainText("9007199254740991");
  });

  test("the API reference prints no safe-integer bounds", async ({ page }) => {
    await page.goto("/api");
    const main = page.locator("main");
    // `before` on the events route: an integer from 0, with no upper bound worth printing.
    await expect(main).toContainText("integer (≥ 0)");
    await expect(main).not.toContainText("9007199254740991");
  });

  test("a server with no successful check says so, with a correct count", async ({ page }) => {
    await page.goto(`/servers/${crash}?tab=health`);
    const check = page.getByRole("button", { name: "Health check" });
    await check.click();
    await expect(page.getByTestId("operation-outcomes")).toContainText("Unhealthy");
    const panel = page.getByRole("tabpanel");
    await untilShown(page, panel.getByRole("heading", { name: "Latency, last check" }));
    await expect(panel).toContainText("0 of 1 ok · no successful checks");
    const chart = panel.getByRole("img", { name: "The last health check failed." });
    await expect(chart).toContainText("No successful checks");
    // No latency was measured: no millisecond axis pretends one was.
    await expect(chart).not.toContainText("ms");
    await page.screenshot({ path: "test-results/small-fixes-health.png" });

    await check.click();
    await untilShown(page, panel.getByRole("heading", { name: "Latency, last 2 checks" }));
    await expect(panel).toContainText("0 of 2 ok · no successful checks");
    await expect(
      panel.getByRole("img", { name: "None of the last 2 health checks succeeded." }),
    ).toBeVisible();
  });

  test("the effect select shows its whole option text", async ({ page, api }) => {
    await waitUntilReady(api, alpha.name);
    await page.goto("/tools");
    await page.getByRole("searchbox", { name: "Search tools" }).fill(alpha.name);
    const select = page.getByTestId(`tool-${alpha.name}__big`).getByLabel("Effect", { exact: true });
    // Registered by an admin after first run: unclassified.
    await expect(select).toHaveValue("");
    const fits = await select.evaluate((element) => {
      const select = element as HTMLSelectElement;
      const style = getComputedStyle(select);
      const context = document.createElement("canvas").getContext("2d");
      if (!context) return { text: "", textWidth: 0, room: 0 };
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = select.selectedOptions[0]?.text ?? "";
      // The room for text: the select's width less its padding and the drop-down arrow (~20px).
      const room =
        select.clientWidth -
        Number.parseFloat(style.paddingLeft) -
        Number.parseFloat(style.paddingRight) -
        20;
      return { text, textWidth: context.measureText(text).width, room };
    });
    expect(fits.text).toBe("unclassified");
    expect(fits.textWidth, JSON.stringify(fits)).toBeLessThanOrEqual(fits.room);
    await expect(page.getByTestId(`tool-${alpha.name}__big`)).toContainText(
      "Treated as external-write until an admin classifies it.",
    );
  });

  test("the overview's calls chart has a time axis", async ({ page }) => {
    await page.goto("/");
    const axis = page.getByTestId("overview-calls-per-minute").getByTestId("calls-chart-axis");
    await expect(axis).toHaveText(/^\d{1,2}:\d{2}(\s?[AP]M)?\d{1,2}:\d{2}(\s?[AP]M)?now$/);
  });
});

/**
 * The check's result is written to the history as it is reported, a moment after the button's
 * answer: look again (a reload) until it is there.
 */
async function untilShown(page: Page, locator: Locator) {
  await expect(async () => {
    if (!(await locator.isVisible())) await page.reload();
    await expect(locator).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The part of a target the middle-truncation keeps whole, checked to be inside its cell. */
async function visibleEnd(target: Locator): Promise<string> {
  const end = target.locator("span").last();
  const isInside = await end.evaluate((element) => {
    const cell = element.closest("td")?.getBoundingClientRect();
    const box = element.getBoundingClientRect();
    return Boolean(cell && box.width > 0 && box.left >= cell.left && box.right <= cell.right);
  });
  expect(isInside).toBe(true);
  return (await end.textContent()) ?? "";
}
