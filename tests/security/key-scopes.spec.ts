import { errorOf, expect, initializeGateway, test } from "./fixtures";

/*
 * The attack (a broken promise rather than a break-in): a workspace key could be created with the
 * `gateway` scope, which /mcp and /calls then refused — only a principal's key reaches the
 * gateway. A scope that can be granted must do what it says: the gateway scope is now refused on a
 * workspace key at creation, and no longer offered by the API's description.
 */

test("a workspace key with the gateway scope is refused at creation, and nothing is created", async ({
  owner,
}) => {
  for (const scopes of [["gateway"], ["admin", "gateway"]]) {
    const name = `gw-${scopes.join("-")}`;
    const created = await owner.post("/api/v1/api-keys", { data: { name, scopes } });
    expect(created.status(), `${scopes}`).toBe(400);
    const error = await errorOf(created);
    expect(error.code).toBe("validation");
    expect(error.message).toMatch(/The gateway scope belongs to a principal's key/);
    expect(Object.keys(error.fieldErrors ?? {}).some((field) => field.startsWith("scopes"))).toBe(true);
    const listed = await owner.get("/api/v1/api-keys");
    const { apiKeys } = (await listed.json()) as { apiKeys: Array<{ name: string }> };
    expect(apiKeys.map((k) => k.name)).not.toContain(name);
  }
});

test("the API description offers only the scopes a workspace key can use", async ({ owner }) => {
  const described = await owner.get("/api/v1/openapi.json");
  const spec = JSON.stringify(await described.json());
  const operation = /"createApiKey".*?"scopes":\{[^}]*?"enum":\[([^\]]*)\]/.exec(spec);
  expect(operation?.[1]).toBeDefined();
  expect(operation?.[1]).not.toContain("gateway");
});

test("a principal's key still carries the gateway scope and reaches /mcp", async ({
  owner,
  playwright,
  baseURL,
}) => {
  const principal = await owner.post("/api/v1/principals", { data: { name: "scope-agent" } });
  expect(principal.status(), await principal.text()).toBe(201);
  const { principal: agent } = (await principal.json()) as { principal: { id: string } };
  const keyed = await owner.post(`/api/v1/principals/${agent.id}/keys`, {
    data: { name: "scope-agent key" },
  });
  expect(keyed.status()).toBe(201);
  const { key, apiKey } = (await keyed.json()) as { key: string; apiKey: { scopes: string[] } };
  expect(apiKey.scopes).toEqual(["gateway"]);
  const gateway = await playwright.request.newContext({ baseURL });
  const initialized = await initializeGateway(gateway, key);
  expect(initialized.status(), await initialized.text()).toBe(200);
  await gateway.dispose();
});
