import type { APIRequestContext } from "@playwright/test";
import { createAgent } from "./agents";
import { cliEnv, makeConfigHome, runCli } from "./cli-runner";
import { expect, test } from "./fixtures";
import { waitUntilReady } from "./servers-page";

/*
 * How a call ended, as each place shows it: a tool that answered `isError: true` reads "Tool error"
 * (never a green "Succeeded") in the Playground, on the call page, in Calls and its filter, in the
 * Overview's "Recent failures" and in the CLI; and a held call is decided where it is shown — on its
 * page and inline in the Playground — with the denial in words, not as a code.
 * The demo tool local-tools__current_time (classified read at first run) answers an unknown time zone
 * with isError; write_note is left unclassified, so a call of it waits for a person.
 */

const CURRENT_TIME = "local-tools__current_time";
const WRITE_NOTE = "local-tools__write_note";
const NOWHERE = "Nowhere/Atlantis";

type ApprovalPolicy = { requireApprovalFor: string[]; forbidSelfApproval: boolean; expirySeconds: number };

async function approvalPolicy(api: APIRequestContext): Promise<ApprovalPolicy> {
  return ((await (await api.get("/api/v1/policy/approvals")).json()) as { policy: ApprovalPolicy }).policy;
}

test.beforeEach(async ({ api }) => {
  await waitUntilReady(api, "local-tools");
});

test("a tool error reads as one in the Playground, on its page, in Calls and in the Overview", async ({
  page,
  api,
}) => {
  await page.goto(`/playground?tool=${CURRENT_TIME}`);
  await page.getByRole("textbox", { name: "timeZone", exact: true }).fill(NOWHERE);
  await page.getByRole("button", { name: "Run", exact: true }).click();

  const result = page.getByTestId("call-result");
  await expect(result).toContainText(`unknown time zone "${NOWHERE}"`, { timeout: 20_000 });
  await expect(result).toContainText("Tool error");
  await expect(result).not.toContainText("Succeeded");
  await expect(result.getByTestId("call-outcome")).toContainText("The tool ran but reported an error");
  await page.screenshot({ path: "test-results/call-outcomes-playground-tool-error.png", fullPage: true });

  await result.getByRole("link", { name: /^call / }).click();
  await expect(page.getByRole("heading", { name: CURRENT_TIME })).toBeVisible();
  const callId = page.url().split("/").at(-1) as string;
  await expect(page.getByTestId("call-status")).toHaveText("Tool error");
  await expect(page.getByTestId("call-outcome")).toContainText("The tool ran but reported an error");
  await expect(page.getByTestId("call-outcome")).toContainText("isError");

  // Calls: the filter has "Tool error", and "Succeeded" no longer lists it.
  await page.goto("/calls");
  await page.getByRole("combobox", { name: "Status", exact: true }).selectOption({ label: "Tool error" });
  await expect(page).toHaveURL(/status=tool_error/);
  const row = page.getByTestId(`call-row-${callId}`);
  await expect(row).toContainText("Tool error");
  await expect(row).not.toContainText("Succeeded");
  await page.getByRole("combobox", { name: "Status", exact: true }).selectOption({ label: "Succeeded" });
  await expect(page).toHaveURL(/status=succeeded/);
  const rows = page.locator('[data-testid^="call-row-"]');
  // The new list (or its empty state) has arrived: none of it is a tool error.
  await expect(page.getByText("No calls match these filters").or(rows.first())).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(rows.filter({ hasText: "Tool error" })).toHaveCount(0);
  const listed = async (status: string) =>
    (
      (await (await api.get(`/api/v1/calls?status=${status}&tool=${CURRENT_TIME}`)).json()) as {
        calls: { id: string; outcome: string }[];
      }
    ).calls;
  expect(await listed("tool_error")).toContainEqual(
    expect.objectContaining({ id: callId, outcome: "tool_error" }),
  );
  expect((await listed("succeeded")).map((c) => c.id)).not.toContain(callId);

  // Overview: among the recent failures, named as a tool error.
  await page.goto("/");
  const failure = page.getByTestId("overview-failures").getByTestId(`failure-${callId}`);
  await expect(failure).toContainText(CURRENT_TIME);
  await expect(failure).toContainText("Tool error");
  await expect(failure).toContainText("The tool ran but reported an error");
});

test("a held call is denied from its page, and the denial reads in words", async ({
  page,
  api,
  playwright,
  baseURL,
}) => {
  const { agent } = await createAgent(api, playwright, {
    baseURL,
    name: `outcomes-${Math.random().toString(36).slice(2, 8)}`,
    patterns: [WRITE_NOTE],
  });
  let callId = "";
  try {
    const response = await agent.post("/api/v1/calls", {
      data: { tool: WRITE_NOTE, arguments: { title: "outcomes e2e", text: "held" } },
    });
    const { call } = (await response.json()) as { call: { id: string; status: string } };
    callId = call.id;
    expect(call.status).toBe("pending_approval");

    await page.goto(`/calls/${callId}`);
    await expect(page.getByTestId("call-status")).toHaveText("Waiting for approval");
    const decide = page.getByRole("form", { name: "Decide this call" });
    // The agent's key was made with the bootstrap key, so no person is behind it: Ada may approve.
    await expect(decide.getByRole("button", { name: "Approve" })).toBeEnabled();
    await page.screenshot({ path: "test-results/call-outcomes-call-page-pending.png", fullPage: true });
    await decide.getByRole("textbox", { name: /Reason/ }).fill("not on a Friday");
    await decide.getByRole("button", { name: "Deny" }).click();

    await expect(page.getByTestId("call-status")).toHaveText("Denied");
    const outcome = page.getByTestId("call-outcome");
    await expect(outcome).toContainText("Denied by Ada Admin: not on a Friday");
    // The raw code stays, small, for operators who grep for it.
    await expect(outcome.getByText("policy_denied", { exact: true })).toBeVisible();
    await expect(page.getByRole("form", { name: "Decide this call" })).toHaveCount(0);
    await page.screenshot({ path: "test-results/call-outcomes-call-page-denied.png", fullPage: true });
    const after = (await (await api.get(`/api/v1/calls/${callId}`)).json()) as {
      call: { status: string; approval: { reason: string } };
    };
    expect(after.call).toMatchObject({ status: "denied", approval: { reason: "not on a Friday" } });
    callId = "";
  } finally {
    if (callId) await api.post(`/api/v1/approvals/${callId}/deny`, { data: { reason: "e2e clean-up" } });
    await agent.dispose();
  }
});

test("one's own held call in the Playground: Approve says why not, Deny withdraws it inline", async ({
  page,
  api,
}) => {
  const before = await approvalPolicy(api);
  await api.put("/api/v1/policy/approvals", { data: { ...before, forbidSelfApproval: true } });
  try {
    await page.goto(`/playground?tool=${WRITE_NOTE}`);
    await page.getByRole("textbox", { name: "title", exact: true }).fill("outcomes playground");
    await page.getByRole("textbox", { name: "text", exact: true }).fill("held");
    await page.getByRole("button", { name: /^Run/ }).click();

    const waiting = page.getByTestId("call-waiting");
    const decide = waiting.getByRole("form", { name: "Decide this call" });
    await expect(decide).toBeVisible({ timeout: 20_000 });
    await expect(decide.getByRole("button", { name: "Approve" })).toBeDisabled();
    await expect(decide).toContainText("No self-approval");
    await page.screenshot({ path: "test-results/call-outcomes-playground-held.png", fullPage: true });
    await decide.getByRole("textbox", { name: /Reason/ }).fill("changed my mind");
    await decide.getByRole("button", { name: "Deny" }).click();

    const result = page.getByTestId("call-result");
    await expect(result).toContainText("Denied");
    await expect(result.getByTestId("call-outcome")).toContainText("Denied by Ada Admin: changed my mind");
    await expect(page.getByTestId("call-waiting")).toHaveCount(0);
  } finally {
    await api.put("/api/v1/policy/approvals", { data: before });
  }
});

test("the CLI prints a tool error as one and exits 5", async ({ api, playwright, baseURL }) => {
  const { key, agent } = await createAgent(api, playwright, {
    baseURL,
    name: `outcomes-cli-${Math.random().toString(36).slice(2, 8)}`,
    patterns: [CURRENT_TIME],
  });
  await agent.dispose();
  const env = cliEnv(baseURL as string, makeConfigHome());
  const called = await runCli(["call", CURRENT_TIME, "--arg", `timeZone=${NOWHERE}`], {
    ...env,
    SWITCHBOARD_API_KEY: key,
  });
  expect(called.code, called.stderr).toBe(5);
  expect(called.stdout).toContain(`unknown time zone "${NOWHERE}"`);
  expect(called.stderr).toContain("tool error");
  const callId = /\(call (\S+)\)/.exec(called.stderr)?.[1] as string;
  expect(callId).toBeTruthy();

  const listed = await runCli(["calls", "list", "--status", "tool_error", "--tool", CURRENT_TIME], env);
  expect(listed.code, listed.stderr).toBe(0);
  const line = listed.stdout.split("\n").find((l) => l.includes(callId));
  expect(line).toMatch(/tool error/);
  const succeeded = await runCli(["calls", "list", "--status", "succeeded", "--tool", CURRENT_TIME], env);
  expect(succeeded.stdout).not.toContain(callId);

  const shown = await runCli(["calls", "show", callId], env);
  expect(shown.stdout).toMatch(/Status\s+tool error/);
});
