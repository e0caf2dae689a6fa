import { tmpdir } from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { createAgent } from "./agents";
import { cliEnv, makeConfigHome, runCli } from "./cli-runner";
import { expect, test } from "./fixtures";
import { waitUntilReady } from "./servers-page";

/*
 * The last hour's numbers as an operator reads them: after an agent's calls to a server of its own
 * (three that answer, one that times out), the Overview's "Calls by server" row and "Busiest agents"
 * entry, and the server's own page, show 4 calls and a 25% error rate. The server and the agent are
 * this spec's own, so other specs' calls do not change the numbers it checks.
 */

const suffix = Math.random().toString(36).slice(2, 8);
const server = `stats-${suffix}`;
const agentName = `stats-agent-${suffix}`;

async function callAs(agent: APIRequestContext, tool: string, args: Record<string, unknown>) {
  const response = await agent.post("/api/v1/calls", { data: { tool, arguments: args } });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { call: { status: string } }).call;
}

test("the Overview and the server's page show the last hour's calls, error rate and latency", async ({
  page,
  api,
  playwright,
  baseURL,
}) => {
  const registered = await api.post("/api/v1/servers", {
    data: {
      name: server,
      transport: "stdio",
      command: "node",
      args: [
        "--import",
        "tsx",
        path.join(process.cwd(), "tests/fixtures/mcp-servers/calls-fixture.ts"),
        path.join(tmpdir(), `${server}.log`),
      ],
      cwd: process.cwd(),
      callTimeoutMs: 500,
    },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  let agent: APIRequestContext | undefined;
  try {
    await waitUntilReady(api, server);
    const { tools } = (await (await api.get(`/api/v1/tools?q=${server}__`)).json()) as {
      tools: { id: string; gatewayName: string }[];
    };
    for (const tool of tools.filter((t) =>
      ["record", "slow"].some((n) => t.gatewayName === `${server}__${n}`),
    ))
      await api.patch(`/api/v1/tools/${tool.id}`, { data: { effect: "read" } });

    ({ agent } = await createAgent(api, playwright, {
      baseURL,
      name: agentName,
      patterns: [`${server}__*`],
    }));
    for (const token of ["one", "two", "three"])
      expect(await callAs(agent, `${server}__record`, { token })).toMatchObject({ status: "succeeded" });
    // The tool takes 3 s, the server allows 0.5 s: a failure.
    expect(await callAs(agent, `${server}__slow`, { ms: 3_000 })).toMatchObject({ status: "failed" });

    await page.goto("/");
    const row = page.getByTestId("overview-server-rates").getByTestId(`server-rate-${server}`);
    await expect(row).toBeVisible();
    const cells = row.getByRole("cell");
    await expect(cells.nth(0)).toHaveText(server);
    await expect(cells.nth(1)).toHaveText("4");
    await expect(cells.nth(2)).toHaveText("< 0.1");
    await expect(cells.nth(3)).toHaveText("25%");
    // Run times are real: a number of ms or s, never the "—" of a server without runs.
    await expect(cells.nth(4)).toHaveText(/^\d+(\.\d+)? m?s$/);
    await expect(cells.nth(5)).toHaveText(/^\d+(\.\d+)? m?s$/);

    const busy = page.getByTestId("overview-busiest-agents").getByTestId(`busy-agent-${agentName}`);
    await expect(busy).toContainText("4 calls");
    await expect(busy).toContainText("1 error");
    await page.screenshot({ path: "test-results/call-stats-overview.png", fullPage: true });

    // The server's page: its own numbers; reached from the row's link.
    await cells.nth(0).getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/servers/${server}$`));
    const own = page.getByTestId("server-call-stats");
    await expect(own.getByRole("definition").nth(0)).toHaveText("4");
    await expect(own.getByRole("definition").nth(2)).toHaveText("25%");
    await expect(own.getByRole("definition").nth(3)).toHaveText(/^\d+(\.\d+)? m?s$/);
    await page.screenshot({ path: "test-results/call-stats-server.png" });

    // The same numbers in a terminal.
    const cli = await runCli(["stats", "--server", server], cliEnv(baseURL ?? "", makeConfigHome()));
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(new RegExp(`${server}\\s+4\\s+0\\.07\\s+1 \\(25%\\)`));
    expect(cli.stdout).toMatch(new RegExp(`${agentName}\\s+4\\s+1`));
  } finally {
    await agent?.dispose();
    await api.delete(`/api/v1/servers/${server}`);
  }
});
