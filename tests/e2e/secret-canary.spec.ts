import fs from "node:fs";
import { e2eServerLog } from "../../playwright.config";
import { expect, test } from "./fixtures";

// A value no page, response or log line may ever contain.
const CANARY = `canary-${Date.now()}-do-not-leak`;

test("a secret value never appears in any response, page or log", async ({ page, api }) => {
  const put = await api.put("/api/v1/secrets/canary-token", { data: { value: CANARY } });
  expect(put.status()).toBe(201);
  const created = await api.post("/api/v1/servers", {
    data: {
      name: "canary-server",
      transport: "streamable-http",
      url: "https://canary.example.com/mcp",
      headers: { "X-Token": { secret: "canary-token" } },
      auth: { type: "bearer", credential: { secret: "canary-token" } },
    },
  });
  expect(created.status()).toBe(201);

  const bodies = [
    await put.text(),
    await created.text(),
    await (await api.get("/api/v1/servers")).text(),
    await (await api.get("/api/v1/servers/canary-server")).text(),
    await (await api.get("/api/v1/secrets")).text(),
    await (await api.get("/api/v1/audit")).text(),
  ];
  for (const body of bodies) expect(body).not.toContain(CANARY);
  expect(bodies[3]).toContain('"isSet":true');

  for (const path of [
    "/",
    "/servers",
    "/settings/secrets",
    "/settings/audit",
    "/servers/canary-server/edit",
  ]) {
    const response = await page.goto(path);
    expect(await response?.text()).not.toContain(CANARY);
    expect(await page.content()).not.toContain(CANARY);
  }
  await expect(page.getByLabel("Credential kind")).toHaveValue("secret");
  await expect(page.getByLabel("Credential", { exact: true })).toHaveValue("canary-token");

  expect(fs.readFileSync(e2eServerLog, "utf8")).not.toContain(CANARY);
});
