import path from "node:path";
import { e2eBootstrapKey } from "../../playwright.config";
import { admin, expect, test } from "./fixtures";

/**
 * The Events page when a server crash-loops: its repeated connect → exit → disconnect rounds fold
 * into one row with a count ("× N, last at …") that opens to the events themselves, instead of
 * drowning everything else; and an event a signed-in person caused names that person.
 */

const crasher = {
  name: "e2e-crash-looper",
  transport: "stdio",
  command: "node",
  args: ["--import", "tsx", path.join(process.cwd(), "tests/fixtures/mcp-servers/pool-crash-on-start.ts")],
  cwd: process.cwd(),
};

test.afterAll(async ({ playwright, baseURL }) => {
  const api = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
  });
  await api.delete(`/api/v1/servers/${crasher.name}`);
  await api.dispose();
});

test("a crash-looping server is one collapsed row with its count; its registration names the person", async ({
  page,
  api,
}) => {
  // Registered with the browser's session: Ada, a person, did it.
  const registered = await page.request.post("/api/v1/servers", { data: crasher });
  expect(registered.status(), await registered.text()).toBe(201);

  // Wait (through the API, not the page) until it has failed three times: three full rounds.
  await expect
    .poll(
      async () => {
        const body = (await (await api.get(`/api/v1/events?server=${crasher.name}&limit=100`)).json()) as {
          events: { type: string }[];
        };
        return body.events.filter((event) => event.type === "server.process_exited").length;
      },
      { timeout: 45_000 },
    )
    .toBeGreaterThanOrEqual(3);

  await page.goto(`/events?server=${crasher.name}`);
  const list = page.getByRole("list", { name: "Events, newest first" });
  const group = list.getByTestId("event-group");
  await expect(group).toHaveCount(1);
  await expect(group).toContainText(crasher.name);
  await expect(group.getByTestId("event-group-steps")).toContainText("process exited");
  await expect(group).toContainText(/last at .*, first at /);
  await expect(group).toContainText("by Switchboard");
  const count = Number((await group.getByTestId("event-group-count").textContent())?.replace(/\D/g, ""));
  expect(count).toBeGreaterThanOrEqual(2);

  // Every process exit so far is inside the group, none is a row of its own beside it.
  const topLevelExits = list.locator(
    ':scope > li[data-testid="event-row"][data-type="server.process_exited"]',
  );
  await expect(topLevelExits).toHaveCount(0);

  // Opening it (keyboard) shows the events it holds, each exit among them.
  const toggle = group.getByRole("button", { name: /^(Show|Hide) the \d+ events$/ });
  await toggle.focus();
  await page.keyboard.press("Enter");
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(toggle).toHaveText(/^Hide the/);
  const inner = group.getByRole("list", { name: /repeated events$/ });
  await expect(inner.locator('[data-type="server.process_exited"]').first()).toBeVisible();
  expect(await inner.locator('[data-type="server.process_exited"]').count()).toBeGreaterThanOrEqual(count);

  // The registration stands alone, and says who did it: the signed-in person.
  const registration = list.locator(':scope > li[data-testid="event-row"][data-type="server.registered"]');
  await expect(registration).toHaveCount(1);
  // (Its icon is hidden from screen readers; the words are what counts.)
  await expect(registration.getByTestId("event-actor")).toHaveText(
    new RegExp(`by ${admin.name} \\(person\\)$`),
  );
  await expect(registration.getByTestId("event-actor")).toHaveAttribute("data-actor-kind", "person");

  await page.screenshot({ path: "test-results/events-collapse.png", fullPage: true });
});
