import { type APIRequestContext, expect, type PlaywrightWorkerArgs } from "@playwright/test";

/**
 * An agent for a test: a principal of its own with `patterns` granted, one gateway key, and a
 * request context that sends it (the bootstrap key belongs to no principal and cannot call).
 */
export async function createAgent(
  api: APIRequestContext,
  playwright: PlaywrightWorkerArgs["playwright"],
  options: { baseURL: string | undefined; name: string; patterns: string[] },
): Promise<{ principalId: string; key: string; agent: APIRequestContext }> {
  const created = await api.post("/api/v1/principals", { data: { name: options.name } });
  expect(created.status(), await created.text()).toBe(201);
  const principalId = ((await created.json()) as { principal: { id: string } }).principal.id;
  const granted = await api.put(`/api/v1/principals/${principalId}/grants`, {
    data: { patterns: options.patterns },
  });
  expect(granted.status(), await granted.text()).toBe(200);
  const keyResponse = await api.post(`/api/v1/principals/${principalId}/keys`, { data: { name: "e2e" } });
  expect(keyResponse.status(), await keyResponse.text()).toBe(201);
  const { key } = (await keyResponse.json()) as { key: string };
  const agent = await playwright.request.newContext({
    baseURL: options.baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${key}` },
  });
  return { principalId, key, agent };
}
