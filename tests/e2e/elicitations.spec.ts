import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { APIRequestContext } from "@playwright/test";
import { createAgent } from "./agents";
import { expect, test } from "./fixtures";
import { waitUntilReady } from "./servers-page";

/*
 * A downstream server asks a question (elicitation/create) during an agent's call, and the agent's
 * client cannot answer (it declared no elicitation capability): the question shows on the open
 * Approvals page, an operator fills in the server's form and accepts, and the values reach the
 * server — the agent's result says what the server received. The conformance fixture's
 * test_elicitation asks for a username and an email and returns what it got.
 */

const server = `elicit-${Math.random().toString(36).slice(2, 8)}`;
const tool = `${server}__test_elicitation`;

test("an operator answers a server's question during an agent's call, and the server gets the values", async ({
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
        path.join(process.cwd(), "tests/fixtures/mcp-servers/conformance-fixture.ts"),
      ],
      cwd: process.cwd(),
    },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  let agent: APIRequestContext | undefined;
  let client: Client | undefined;
  let principalId = "";
  try {
    await waitUntilReady(api, server);
    let toolId = "";
    await expect
      .poll(async () => {
        const { tools } = (await (await api.get(`/api/v1/tools?q=${tool}`)).json()) as {
          tools: { id: string; gatewayName: string }[];
        };
        toolId = tools.find((t) => t.gatewayName === tool)?.id ?? "";
        return toolId;
      })
      .not.toBe("");
    // Classified read, so the call runs at once (no approval): the question is the only thing to answer.
    expect((await api.patch(`/api/v1/tools/${toolId}`, { data: { effect: "read" } })).ok()).toBe(true);

    let key: string;
    ({ agent, key, principalId } = await createAgent(api, playwright, {
      baseURL,
      name: `${server}-agent`,
      patterns: [tool],
    }));
    client = new Client({ name: "elicitation-e2e", version: "1.0.0" }); // no elicitation capability
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/mcp", baseURL), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );

    await page.goto("/approvals");
    const running = client.callTool({ name: tool, arguments: { message: "Which account should I use?" } });

    const question = page
      .getByRole("region", { name: "Questions from servers" })
      .getByRole("listitem")
      .filter({
        hasText: "Which account should I use?",
      });
    await expect(question).toBeVisible({ timeout: 20_000 });
    await expect(question.getByText(`Question from ${server}`)).toBeVisible();

    // A required field left empty is refused beside the field; nothing reaches the server.
    await question.getByLabel("username").fill("ada");
    await question.getByRole("button", { name: "Accept" }).click();
    await expect(question.getByTestId("field-error")).toContainText("is required");

    await question.getByLabel("email").fill("ada@example.com");
    await page.screenshot({ path: "test-results/elicitation-question.png", fullPage: true });
    await question.getByRole("button", { name: "Accept" }).click();
    await expect(page.getByText("Answer sent to the server.")).toBeVisible();
    await expect(question).toHaveCount(0);

    const result = (await running) as CallToolResult;
    const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    const received = JSON.parse(/content=(.*)$/s.exec(text)?.[1] ?? "{}");
    expect(text).toContain("action=accept");
    expect(received).toEqual({ username: "ada", email: "ada@example.com" });
  } finally {
    await client?.close();
    await agent?.dispose();
    if (principalId) await api.delete(`/api/v1/principals/${principalId}`);
    await api.delete(`/api/v1/servers/${server}`);
  }
});
