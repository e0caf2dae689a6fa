import { readFile } from "node:fs/promises";
import path from "node:path";
import type { APIRequestContext, Locator, Page, PlaywrightWorkerArgs } from "@playwright/test";
import { e2eBootstrapKey } from "../../playwright.config";
import { expect, test } from "./fixtures";
import { waitUntilReady } from "./servers-page";

/**
 * The Playground as Inspector: read a server's resources (text, JSON, an image, other bytes, a
 * template filled in with the server's suggestions) and get a prompt with its arguments, as the
 * signed-in admin — each recorded as a call of its kind in Calls. Against a real stdio server with
 * known contents (tests/fixtures/mcp-servers/inspect-fixture.ts), registered and removed here.
 */

const SERVER = "inspect-demo";
const inspectServer = {
  name: SERVER,
  transport: "stdio",
  command: "node",
  args: ["--import", "tsx", path.join(process.cwd(), "tests/fixtures/mcp-servers/inspect-fixture.ts")],
  cwd: process.cwd(),
};

/** REST as the bootstrap admin, for set-up and clean-up (the `api` fixture is per test). */
async function withApi(
  playwright: PlaywrightWorkerArgs["playwright"],
  baseURL: string | undefined,
  run: (api: APIRequestContext) => Promise<void>,
) {
  const api = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
  });
  try {
    await run(api);
  } finally {
    await api.dispose();
  }
}

/** Opens the Playground on `tab` (from the keyboard, as the tabs are meant to be used) with the server chosen. */
async function openTab(page: Page, tab: "Resources" | "Prompts") {
  await page.goto("/playground");
  await page.getByRole("tab", { name: "Tools" }).focus();
  await page.keyboard.press(tab === "Resources" ? "ArrowRight" : "End");
  await expect(page.getByRole("tab", { name: tab })).toHaveAttribute("aria-selected", "true");
  await page.getByLabel("Server", { exact: true }).selectOption(SERVER);
}

/** The call a result says it is recorded as: its id, from the link. */
async function recordedCallId(result: Locator): Promise<string> {
  const link = result.getByRole("link", { name: /Recorded as call/ });
  await expect(link).toBeVisible();
  const href = (await link.getAttribute("href")) ?? "";
  return decodeURIComponent(href.replace(/^\/calls\//, ""));
}

test.describe.configure({ mode: "serial" });

test.describe("playground: resources and prompts", () => {
  test.beforeAll(async ({ playwright, baseURL }) => {
    await withApi(playwright, baseURL, async (api) => {
      await api.delete(`/api/v1/servers/${SERVER}`);
      const created = await api.post("/api/v1/servers", { data: inspectServer });
      expect(created.status(), await created.text()).toBe(201);
      await waitUntilReady(api, SERVER);
      await expect
        .poll(
          async () =>
            ((await (await api.get(`/api/v1/servers/${SERVER}/prompts`)).json()) as { prompts: unknown[] })
              .prompts.length,
        )
        .toBeGreaterThan(0);
    });
  });

  test.afterAll(async ({ playwright, baseURL }) => {
    await withApi(playwright, baseURL, async (api) => {
      await api.delete(`/api/v1/servers/${SERVER}`);
    });
  });

  test("reads text, JSON, an image, bytes and a filled-in template, each recorded as a resource read", async ({
    page,
  }, testInfo) => {
    await openTab(page, "Resources");
    const resource = page.getByLabel("Resource", { exact: true });
    const result = page.getByTestId("read-result");
    const read = page.getByRole("button", { name: "Read", exact: true });

    await resource.selectOption({ label: "readme — inspect://docs/readme.txt" });
    await read.click();
    await expect(result.locator("pre")).toHaveText("Inspect fixture readme\nsecond line");
    await expect(result).toContainText("text/plain");
    const textCallId = await recordedCallId(result);

    await resource.selectOption({ label: "settings — inspect://config/settings.json" });
    await read.click();
    // JSON as a table of its values, not as raw text.
    const table = result.getByRole("table");
    await expect(table.getByRole("row", { name: /region\s+eu-west/ })).toBeVisible();
    await expect(table).toContainText("callsPerMinute");

    await resource.selectOption({ label: "checkerboard — inspect://images/checkerboard.png" });
    await read.click();
    const image = result.getByRole("img", { name: "The resource inspect://images/checkerboard.png" });
    await expect(image).toBeVisible();
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(16);
    await expect(result).toContainText("image/png, 88 bytes");
    await page.screenshot({ path: testInfo.outputPath("resources-image.png"), fullPage: true });

    await resource.selectOption({ label: "archive — inspect://files/archive.gz" });
    await read.click();
    await expect(result).toContainText("Binary, 10 bytes, application/gzip");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      result.getByRole("link", { name: "Download" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("archive.gz");
    const saved = await readFile((await download.path()) ?? "");
    expect([...saved]).toEqual([0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef, 0x00, 0xff]);

    // A template: the server suggests values for its variable as it is typed.
    await resource.selectOption({ label: "color — inspect://colors/{color}" });
    await page.getByRole("textbox", { name: "color" }).fill("gr");
    await expect(page.getByRole("button", { name: "Use green for color" })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("resources-suggestions.png"), fullPage: true });
    await page.getByRole("button", { name: "Use green for color" }).click();
    await expect(page.getByRole("textbox", { name: "color" })).toHaveValue("green");
    await expect(page.getByTestId("template-uri")).toHaveText("inspect://colors/green");
    await page.screenshot({ path: testInfo.outputPath("resources-template.png"), fullPage: true });
    await read.click();
    await expect(result.locator("pre")).toHaveText("The color green.");

    await page.goto(`/calls/${encodeURIComponent(textCallId)}`);
    await expect(page.getByText("Resource read", { exact: true }).first()).toBeVisible();
    await expect(page.getByRole("heading", { name: "inspect://docs/readme.txt" })).toBeVisible();
  });

  test("gets a prompt with its arguments, completed by the server, recorded as a prompt get", async ({
    page,
  }, testInfo) => {
    await openTab(page, "Prompts");
    await page.getByLabel("Prompt", { exact: true }).selectOption({ label: "Code review — code-review" });
    const get = page.getByRole("button", { name: "Get prompt" });

    // The required argument is said so beside its field, and nothing is asked of the server.
    await get.click();
    await expect(page.getByTestId("field-error")).toHaveText("Required.");
    await expect(page.getByRole("textbox", { name: "language" })).toBeFocused();

    // Narrowed by what is typed: "py" leaves python alone among the server's languages.
    await page.getByRole("textbox", { name: "language" }).fill("py");
    await expect(page.getByRole("button", { name: /^Use .* for language$/ })).toHaveText(["python"]);
    await page.getByRole("textbox", { name: "language" }).fill("ty");
    await page.getByRole("button", { name: "Use typescript for language" }).click();
    await page.getByRole("textbox", { name: "focus" }).fill("naming");
    await get.click();

    const result = page.getByTestId("prompt-result");
    const messages = result.getByTestId("prompt-message");
    await expect(messages).toHaveCount(2);
    await expect(messages.nth(0)).toContainText("user");
    await expect(messages.nth(0)).toContainText("Review this typescript code, focusing on naming.");
    await expect(messages.nth(1)).toContainText("assistant");
    await expect(messages.nth(1)).toContainText("Sure: paste the typescript snippet.");
    await page.screenshot({ path: testInfo.outputPath("prompts.png"), fullPage: true });
    const callId = await recordedCallId(result);

    // In Calls: a prompt get, by the operator.
    await page.goto("/calls");
    const row = page.getByTestId(`call-row-${callId}`);
    await expect(row).toContainText("Prompt get");
    await expect(row).toContainText("operator");
  });
});
