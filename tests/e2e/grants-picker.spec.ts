import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { waitUntilReady } from "./servers-page";

/**
 * The grants picker as an admin uses it: a whole server gives `server__*`, single tools give their
 * own patterns, each with the live count of tools it matches — and the agent can then call exactly
 * what was picked. The free-text box stays for wildcards, with the same count as one types.
 */

const SERVER = "local-tools";
type ToolsBody = { tools: { gatewayName: string; serverName: string }[] };

/** The demo server's tools as the API lists them: the picker's counts are checked against this. */
async function toolsOf(api: APIRequestContext, server: string): Promise<string[]> {
  const body = (await (
    await api.get(`/api/v1/tools?server=${encodeURIComponent(server)}&limit=500`)
  ).json()) as ToolsBody;
  return body.tools.filter((tool) => tool.serverName === server).map((tool) => tool.gatewayName);
}

test("pick a server, then two tools: the patterns, their counts, and what the agent may call", async ({
  page,
  api,
}) => {
  await waitUntilReady(api, SERVER);
  await expect.poll(async () => (await toolsOf(api, SERVER)).length).toBeGreaterThanOrEqual(3);
  const serverTools = await toolsOf(api, SERVER);

  const created = await api.post("/api/v1/principals", { data: { name: `picker-${Date.now()}` } });
  expect(created.status()).toBe(201);
  const principalId = ((await created.json()) as { principal: { id: string } }).principal.id;
  const keyResponse = await api.post(`/api/v1/principals/${principalId}/keys`, { data: { name: "e2e" } });
  const { key } = (await keyResponse.json()) as { key: string };

  try {
    await page.goto(`/principals/${principalId}`);
    const picker = page.getByRole("region", { name: "Pick servers and tools" });
    const result = picker.getByTestId("picker-result");
    await expect(result).toContainText("Pick a server or tools");

    // The whole server, by keyboard: Tab to its checkbox, Space.
    const wholeServer = picker.getByRole("checkbox", { name: new RegExp(`^${SERVER} whole server`) });
    await wholeServer.focus();
    await page.keyboard.press("Space");
    await expect(wholeServer).toBeChecked();
    await expect(picker.getByTestId("picked-pattern")).toHaveText([`${SERVER}__*`]);
    await expect(picker.getByTestId("picker-count")).toHaveText(`matching ${serverTools.length} tools now`);
    // Its tools are covered by it: checked, and not to be picked one by one.
    const tools = picker.getByRole("list", { name: `Tools of ${SERVER}` });
    await expect(tools.getByRole("checkbox", { name: /^echo\b/ })).toBeChecked();
    await expect(tools.getByRole("checkbox", { name: /^echo\b/ })).toBeDisabled();
    await wholeServer.uncheck();
    await expect(result).toContainText("Pick a server or tools");

    // Two tools: the filter narrows the tree, the picks survive it.
    await picker.getByRole("searchbox", { name: "Filter servers and tools" }).fill("word");
    await expect(tools.getByRole("checkbox")).toHaveCount(1);
    await tools.getByRole("checkbox", { name: /^word_count\b/ }).check();
    await picker.getByRole("searchbox", { name: "Filter servers and tools" }).fill("");
    await tools.getByRole("checkbox", { name: /^echo\b/ }).check();
    await expect(picker.getByTestId("picked-pattern")).toHaveText([
      `${SERVER}__word_count`,
      `${SERVER}__echo`,
    ]);
    await expect(picker.getByTestId("picker-count")).toHaveText("matching 2 tools now");
    await page.screenshot({ path: "test-results/grants-picker.png", fullPage: true });

    await picker.getByRole("button", { name: "Add 2 grants" }).click();
    await expect(page.getByTestId(`grant-${SERVER}__echo`)).toContainText("matches 1 tool");
    await expect(page.getByTestId(`grant-${SERVER}__word_count`)).toBeVisible();
    await expect(picker.getByTestId("picker-result")).toContainText("Pick a server or tools");
    // Granted now: shown as such in the tree.
    await expect(tools.getByRole("checkbox", { name: /^echo\b/ })).toBeDisabled();
    const grants = await api.get(`/api/v1/principals/${principalId}/grants`);
    expect(await grants.json()).toEqual({ patterns: [`${SERVER}__echo`, `${SERVER}__word_count`] });

    // The agent may call exactly those: word_count runs, another tool of the server is refused.
    const callAs = async (tool: string, args: Record<string, unknown>) => {
      const response = await page.request.post("/api/v1/calls", {
        headers: { Authorization: `Bearer ${key}` },
        data: { tool, arguments: args },
      });
      return ((await response.json()) as { call: { status: string } }).call.status;
    };
    expect(await callAs(`${SERVER}__word_count`, { text: "one two" })).toBe("succeeded");
    expect(await callAs(`${SERVER}__current_time`, {})).toBe("denied");

    // Free text stays for wildcards, counted live by the same rule as the picker.
    const typed = page.getByRole("combobox", { name: "Grant pattern" });
    await typed.fill(`${SERVER}__*`);
    await expect(page.getByTestId("draft-count")).toHaveText(`would match ${serverTools.length} tools`);
    await typed.fill(`${SERVER.toUpperCase()}__*`);
    await expect(page.getByText("not a pattern yet")).toBeVisible();
  } finally {
    await api.delete(`/api/v1/principals/${principalId}`);
  }
});
