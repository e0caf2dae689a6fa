import { tmpdir } from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { createAgent } from "./agents";
import { expect, test } from "./fixtures";
import { waitUntilReady } from "./servers-page";

/*
 * The Overview as an operator keeps it open: a call that starts waiting for a person raises the
 * pending count, a call that fails shows up among the recent failures, and both count in the
 * calls-per-minute card — all without a reload. The failure is real: a fixture server's `slow`
 * tool outlives the server's 500 ms call timeout.
 */

const server = `overview-${Math.random().toString(36).slice(2, 8)}`;
const slowTool = `${server}__slow`;

type CallBody = { call: { id: string; status: string; error: { code: string } | null } };

async function callAs(agent: APIRequestContext, tool: string, args: Record<string, unknown>) {
  const response = await agent.post("/api/v1/calls", { data: { tool, arguments: args } });
  expect(response.status(), await response.text()).toBeLessThan(300);
  return ((await response.json()) as CallBody).call;
}

const countIn = async (text: Promise<string | null>) => Number(/\d+/.exec((await text) ?? "")?.[0]);

test("the overview follows waiting and failed calls as they happen", async ({
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
  let waitingId = "";
  try {
    await waitUntilReady(api, server);
    const { tools } = (await (await api.get(`/api/v1/tools?q=${slowTool}`)).json()) as {
      tools: { id: string; gatewayName: string }[];
    };
    const slow = tools.find((tool) => tool.gatewayName === slowTool);
    expect(slow).toBeDefined();
    await api.patch(`/api/v1/tools/${slow?.id}`, { data: { effect: "read" } });

    ({ agent } = await createAgent(api, playwright, {
      baseURL,
      name: `${server}-agent`,
      patterns: [slowTool, "local-tools__write_note"],
    }));

    await page.goto("/");
    await expect(page.getByText("Live", { exact: true })).toBeVisible();
    const approvals = page.getByTestId("overview-approvals");
    const perMinute = page.getByTestId("overview-calls-per-minute");
    const pendingBefore = await countIn(approvals.locator("p").first().textContent());
    const callsBefore = await countIn(perMinute.locator("p").last().textContent());

    // A call that waits for a person (write_note is unclassified, so enforced as external-write).
    const waiting = await callAs(agent, "local-tools__write_note", { title: "overview", text: "overview" });
    waitingId = waiting.id;
    expect(waiting.status).toBe("pending_approval");
    await expect(approvals.locator("p").first()).toHaveText(String(pendingBefore + 1));
    await expect(approvals).toContainText("The oldest was requested");

    // A call that fails: the tool takes 3 s, the server allows 0.5 s.
    const failed = await callAs(agent, slowTool, { ms: 3_000 });
    expect(failed).toMatchObject({ status: "failed", error: { code: "timeout" } });
    const failures = page.getByTestId("overview-failures");
    const failure = failures.getByRole("listitem").filter({ hasText: slowTool });
    await expect(failure).toContainText("timeout");
    await expect
      .poll(() => countIn(perMinute.locator("p").last().textContent()))
      .toBeGreaterThanOrEqual(callsBefore + 2);

    await failure.getByRole("link", { name: slowTool }).click();
    await expect(page).toHaveURL(new RegExp(`/calls/${failed.id}$`));
  } finally {
    if (waitingId)
      await api.post(`/api/v1/approvals/${waitingId}/deny`, { data: { reason: "e2e clean-up" } });
    await agent?.dispose();
    await api.delete(`/api/v1/servers/${server}`);
  }
});
