import type { APIRequestContext } from "@playwright/test";

export type RestoreEffect = (api: APIRequestContext) => Promise<void>;

/**
 * The demo tools come classified `read` at first run, so they run without a person. A spec that
 * needs a call to wait for approval makes one unclassified (enforced as external-write) with this,
 * and puts its effect back afterwards with the returned function (given a live request context):
 * the e2e server is shared.
 */
export async function unclassifyTool(api: APIRequestContext, gatewayName: string): Promise<RestoreEffect> {
  const { tools } = (await (await api.get(`/api/v1/tools?q=${encodeURIComponent(gatewayName)}`)).json()) as {
    tools: { id: string; gatewayName: string; effect: string | null }[];
  };
  const tool = tools.find((t) => t.gatewayName === gatewayName);
  if (!tool) throw new Error(`${gatewayName} is not in the catalog`);
  const changed = await api.patch(`/api/v1/tools/${tool.id}`, { data: { effect: null } });
  if (!changed.ok()) throw new Error(`could not unclassify ${gatewayName}: ${await changed.text()}`);
  return async (context) => {
    await context.patch(`/api/v1/tools/${tool.id}`, { data: { effect: tool.effect } });
  };
}
