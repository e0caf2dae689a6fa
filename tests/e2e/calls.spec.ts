import type { APIRequestContext } from "@playwright/test";
import { createAgent } from "./agents";
import { expect, test } from "./fixtures";
import { expectTableCellsWhole } from "./layout";

/*
 * The call history as an operator reads it: an agent's calls listed with their outcome, new ones
 * arriving without a reload, filters that live in the URL, and each row opening the call's page.
 * The agent is granted only local-tools__write_note (left unclassified at first run, so it waits for approval); its call of
 * local-tools__word_count is refused by the deny-by-default grants at once.
 */

type CallBody = { call: { id: string; status: string } };

async function callAs(agent: APIRequestContext, tool: string, text: string) {
  const response = await agent.post("/api/v1/calls", {
    data: { tool, arguments: { title: "calls e2e", text } },
  });
  expect(response.status(), await response.text()).toBeLessThan(300);
  return ((await response.json()) as CallBody).call;
}

test("an agent's calls are listed live, filtered through the URL, and each opens its page", async ({
  page,
  api,
  playwright,
  baseURL,
}) => {
  const name = `calls-e2e-${Math.random().toString(36).slice(2, 8)}`;
  const { principalId, agent } = await createAgent(api, playwright, {
    baseURL,
    name,
    patterns: ["local-tools__write_note"],
  });
  let waitingId = "";
  try {
    const refused = await callAs(agent, "local-tools__word_count", "not granted");
    expect(refused.status).toBe("denied");

    await page.goto("/calls");
    await page
      .getByRole("combobox", { name: "Requester", exact: true })
      .selectOption({ label: `${name} (agent)` });
    await expect(page).toHaveURL(new RegExp(`requester=${principalId}`));
    const refusedRow = page.getByTestId(`call-row-${refused.id}`);
    await expect(refusedRow).toContainText("local-tools__word_count");
    await expect(refusedRow).toContainText("Denied");
    await expect(refusedRow).toContainText(name);
    // Refused before its tool was looked up: no server, no effect, not a "removed" one.
    await expect(refusedRow).not.toContainText("server removed");
    await expect(refusedRow).not.toContainText("effect:");
    await expect(page.getByText("1 call shown")).toBeVisible();

    // A call made while the page is open appears without a reload.
    const waiting = await callAs(agent, "local-tools__write_note", "needs a person");
    waitingId = waiting.id;
    expect(waiting.status).toBe("pending_approval");
    await expect(page.getByTestId(`call-row-${waiting.id}`)).toContainText("Waiting for approval");
    await expect(page.getByText("2 calls shown")).toBeVisible();
    await expectTableCellsWhole(page);

    // Filters are in the URL: a reload keeps them.
    await page.getByRole("combobox", { name: "Status", exact: true }).selectOption({ label: "Denied" });
    await expect(page).toHaveURL(/status=denied/);
    await page.reload();
    await expect(refusedRow).toBeVisible();
    await expect(page.getByTestId(`call-row-${waiting.id}`)).toHaveCount(0);
    await expect(page.getByText("1 call shown")).toBeVisible();

    await refusedRow.getByRole("link", { name: "local-tools__word_count" }).click();
    await expect(page).toHaveURL(new RegExp(`/calls/${refused.id}$`));
    await expect(page.getByRole("heading", { name: "local-tools__word_count" })).toBeVisible();
    await expect(page.getByText("none: refused before its tool was looked up")).toBeVisible();
  } finally {
    // Leave no call waiting in the shared approval queue.
    if (waitingId)
      await api.post(`/api/v1/approvals/${waitingId}/deny`, { data: { reason: "e2e clean-up" } });
    await agent.dispose();
  }
});
