import { randomBytes } from "node:crypto";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { APIRequestContext } from "@playwright/test";
import { changeInstancePolicy, expect, joinAs, test } from "./fixtures";

/*
 * The attack: a stdio server put the value of a workspace secret it was given in its `env` into
 * its tool descriptions, and Switchboard stored and showed it verbatim — in the REST tool lists,
 * the gateway's tools/list (to every granted agent) and the Tools page (to every viewer). Catalog
 * texts are now scrubbed of secret values before they are stored, as call results already are.
 */

const SERVER = "echo-secret";
const fixture = path.join(process.cwd(), "tests", "security", "fixtures", "echo-secret.ts");

test("a secret a server echoes into its catalog is shown nowhere: REST, gateway, events, pages", async ({
  owner,
  browser,
  baseURL,
}) => {
  const secret = `tok-${randomBytes(12).toString("hex")}`;
  // The suite's TypeScript fixtures run as `node --import tsx <file>`, which an owner must allow.
  const restorePolicy = await changeInstancePolicy(owner, (policy) => {
    policy.stdio.launchSpecs.push({
      program: "node",
      args: ["--import", "tsx", "{file}"],
      rest: true,
      audience: "owners",
      why: "The security suite's TypeScript fixture servers.",
    });
  });
  let principalId: string | undefined;
  try {
    const put = await owner.put("/api/v1/secrets/echo-token", { data: { value: secret } });
    expect(put.status(), await put.text()).toBeLessThan(300);
    const registered = await owner.post("/api/v1/servers", {
      data: {
        name: SERVER,
        transport: "stdio",
        command: "node",
        args: ["--import", "tsx", fixture],
        env: { ECHO_TOKEN: { secret: "echo-token" } },
      },
    });
    expect(registered.status(), await registered.text()).toBe(201);

    // The catalog arrived (a sentinel: the scrubbed tool is there, so the checks below can fail).
    let toolsBody = "";
    await expect
      .poll(
        async () => {
          toolsBody = await (await owner.get(`/api/v1/servers/${SERVER}/tools`)).text();
          return toolsBody.includes('"list_notes"');
        },
        { timeout: 60_000, message: "the fixture server's tools were discovered" },
      )
      .toBe(true);

    const restBodies: Record<string, string> = {
      "GET /api/v1/servers/{n}/tools": toolsBody,
      "GET /api/v1/tools": await (await owner.get(`/api/v1/tools?server=${SERVER}`)).text(),
      "GET /api/v1/servers/{n}/resources": await (
        await owner.get(`/api/v1/servers/${SERVER}/resources`)
      ).text(),
      "GET /api/v1/servers/{n}/prompts": await (await owner.get(`/api/v1/servers/${SERVER}/prompts`)).text(),
      "GET /api/v1/servers/{n}/snapshots": await (
        await owner.get(`/api/v1/servers/${SERVER}/snapshots`)
      ).text(),
      "GET /api/v1/servers/{n}": await (await owner.get(`/api/v1/servers/${SERVER}`)).text(),
      "GET /api/v1/servers/{n}/diagnostics": await (
        await owner.get(`/api/v1/servers/${SERVER}/diagnostics`)
      ).text(),
      "GET /api/v1/events": await (await owner.get(`/api/v1/events?server=${SERVER}&limit=200`)).text(),
    };
    for (const [where, body] of Object.entries(restBodies)) expect(body, where).not.toContain(secret);
    expect(toolsBody).toContain("[redacted]");
    expect(restBodies["GET /api/v1/tools"]).toContain(`${SERVER}__list_notes`);
    // The tool whose very name is the secret cannot be shown with a usable name: it is left out.
    expect(toolsBody).not.toContain("leak_");

    // A granted agent, through the gateway.
    principalId = await createPrincipal(owner, `${SERVER}-agent`, [`${SERVER}__*`]);
    const key = await createKey(owner, principalId);
    const client = new Client({ name: "catalog-secrets", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/mcp", baseURL), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    try {
      const gateway = {
        "tools/list": await client.listTools(),
        "resources/list": await client.listResources(),
        "resources/templates/list": await client.listResourceTemplates(),
        "prompts/list": await client.listPrompts(),
      };
      expect(gateway["tools/list"].tools.map((tool) => tool.name)).toContain(`${SERVER}__list_notes`);
      expect(gateway["prompts/list"].prompts.length).toBeGreaterThan(0);
      for (const [method, result] of Object.entries(gateway))
        expect(JSON.stringify(result), method).not.toContain(secret);
      expect(JSON.stringify(client.getServerVersion()) + client.getInstructions()).not.toContain(secret);
    } finally {
      await client.close();
    }

    // A viewer, in the browser: the Tools page and the server's pages.
    const viewer = await joinAs(browser, owner, {
      name: "Cat Viewer",
      email: `cat-viewer-${Date.now()}@example.com`,
      role: "viewer",
    });
    try {
      const page = await viewer.newPage();
      await page.goto("/tools");
      await expect(page.getByText(`${SERVER}__list_notes`).first()).toBeVisible();
      expect(await page.content()).not.toContain(secret);
      for (const tab of ["", "?tab=resources", "?tab=prompts", "?tab=diagnostics", "?tab=snapshots"]) {
        const response = await page.goto(`/servers/${SERVER}${tab}`);
        expect(await response?.text(), `/servers/${SERVER}${tab}`).not.toContain(secret);
        await expect(page.getByRole("heading", { name: SERVER }).first()).toBeVisible();
        expect(await page.content(), `/servers/${SERVER}${tab}`).not.toContain(secret);
      }
    } finally {
      await viewer.close();
    }
  } finally {
    if (principalId) await owner.delete(`/api/v1/principals/${principalId}`);
    await owner.delete(`/api/v1/servers/${SERVER}`);
    await owner.delete("/api/v1/secrets/echo-token");
    await restorePolicy();
  }
});

async function createPrincipal(owner: APIRequestContext, name: string, patterns: string[]): Promise<string> {
  const created = await owner.post("/api/v1/principals", { data: { name } });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { principal: { id: string } }).principal.id;
  const granted = await owner.put(`/api/v1/principals/${id}/grants`, { data: { patterns } });
  expect(granted.status(), await granted.text()).toBe(200);
  return id;
}

async function createKey(owner: APIRequestContext, principalId: string): Promise<string> {
  const made = await owner.post(`/api/v1/principals/${principalId}/keys`, { data: { name: "security" } });
  expect(made.status(), await made.text()).toBe(201);
  return ((await made.json()) as { key: string }).key;
}
