import path from "node:path";
import { createAgent } from "./agents";
import { expect, test } from "./fixtures";
import { removeServerAfterAll } from "./servers-page";

/**
 * Quarantine from the tool row: an admin sets a tool aside (every call refused with a clear 403),
 * then reviews and clears it — the clearing lands in the audit log. A server of its own, so no other
 * spec meets a refused tool.
 */

const server = {
  name: "quarantine-demo",
  transport: "stdio",
  command: "node",
  args: ["--import", "tsx", path.join(process.cwd(), "tests/fixtures/mcp-servers/pool-flaky.ts")],
  cwd: process.cwd(),
};
const ECHO = "quarantine-demo__echo";

removeServerAfterAll(server.name);

test("an admin quarantines a tool from its row, calls are refused, and clearing it is audited", async ({
  page,
  api,
  playwright,
  baseURL,
}) => {
  const { agent, principalId } = await createAgent(api, playwright, {
    baseURL,
    name: `quarantine-agent-${Date.now()}`,
    patterns: [ECHO],
  });
  expect((await api.post("/api/v1/servers", { data: server })).status()).toBe(201);
  await expect
    .poll(
      async () => {
        const body = (await (await api.get(`/api/v1/tools?q=${ECHO}`)).json()) as {
          tools: { gatewayName: string }[];
        };
        return body.tools.some((tool) => tool.gatewayName === ECHO);
      },
      { timeout: 30_000 },
    )
    .toBe(true);

  await page.goto("/tools");
  const row = page.getByTestId(`tool-${ECHO}`);
  await row.getByRole("button", { name: "Quarantine (refuse until reviewed)" }).click();
  await expect(row.getByText("quarantined", { exact: true })).toBeVisible();
  await expect(row).toContainText("calls refused until reviewed");

  const refused = await agent.post("/api/v1/calls", { data: { tool: ECHO, arguments: { text: "hi" } } });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
    /quarantine-demo__echo is quarantined/,
  );

  await row.getByRole("button", { name: "Reviewed: clear quarantine" }).click();
  await expect(row.getByText("quarantined", { exact: true })).toHaveCount(0);
  const audit = (await (await api.get("/api/v1/audit?action=tool")).json()) as {
    entries: { action: string; detail: string | null }[];
  };
  expect(audit.entries.map((entry) => entry.action)).toEqual(
    expect.arrayContaining(["tool.quarantined", "tool.quarantine_cleared"]),
  );
  await agent.dispose();
  await api.delete(`/api/v1/principals/${principalId}`);
});
