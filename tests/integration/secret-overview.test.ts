import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SYSTEM_AUTHORITY } from "@/lib/auth/instance-owners";
import type { ProcessDatabase } from "@/lib/runtime/process-db";
import { listSecretOverview } from "@/lib/secrets/secret-overview";
import { putSecret } from "@/lib/secrets/secrets";
import { registerServer } from "@/lib/servers/registry";
import { openProcessTestDatabase } from "../fixtures/databases";

/* Settings → Secrets' list: stored names and names servers refer to without a value, with users. */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));

describe("the secrets overview", () => {
  let handle: ProcessDatabase;
  beforeAll(async () => {
    handle = await openProcessTestDatabase("pglite");
  });
  afterAll(async () => {
    await handle?.close();
    vi.unstubAllEnvs();
  });

  it("lists missing values first, then stored ones, each with the servers that use it", async () => {
    const tenantId = handle.defaultTenant.id;
    const stdio = (name: string, env: Record<string, unknown>) =>
      registerServer(handle.db, {
        authority: SYSTEM_AUTHORITY,
        tenantId,
        input: { name, transport: "stdio", command: "node", env, enabled: false },
      });
    await stdio("gh", { GITHUB_TOKEN: { secret: "gh-token" }, ALSO: { secret: "gh-token" } });
    await stdio("jira", { JIRA_TOKEN: { secret: "jira-token" }, GITHUB_TOKEN: { secret: "gh-token" } });
    await putSecret(handle.db, { tenantId, name: "jira-token", value: "j-123", by: null });
    await putSecret(handle.db, { tenantId, name: "old-token", value: "o-456", by: null });

    const overview = await listSecretOverview(handle.db, { tenantId });
    expect(overview.map(({ name, isSet, usedBy }) => ({ name, isSet, usedBy }))).toEqual([
      { name: "gh-token", isSet: false, usedBy: ["gh", "jira"] },
      { name: "jira-token", isSet: true, usedBy: ["jira"] },
      { name: "old-token", isSet: true, usedBy: [] },
    ]);
    expect(overview[0]?.updatedAt).toBeNull();
    expect(JSON.stringify(overview)).not.toMatch(/j-123|o-456/);
  });
});
