import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { APIRequestContext, BrowserContext } from "@playwright/test";
import { expect, joinAs, test } from "./fixtures";

/**
 * #15 item 3: with an admin signed in, a page on another loopback port (http://127.0.0.1:9999)
 * made no-cors POSTs with an untyped Blob body to the REST API and registered a server that sent a
 * secret to the attacker: loopback names were allowed on any port and a body without Content-Type
 * was accepted. And no header kept another site from framing the dashboard.
 */

/**
 * The attacker's site: one HTML page on another loopback port, in the same browser as the admin.
 * Its <html> says data-hydrated because the admin's browser (tests/e2e/fixtures.ts) waits for that
 * after every navigation to an HTML page.
 */
async function startAttackerSite(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function namesOf(owner: APIRequestContext, path: string, key: string): Promise<string[]> {
  const response = await owner.get(path);
  expect(response.status(), await response.text()).toBe(200);
  const list = ((await response.json()) as Record<string, Array<{ name?: string }>>)[key] ?? [];
  return list.map((item) => item.name ?? "");
}

test.describe("cross-origin writes and framing against a signed-in admin", () => {
  let admin: BrowserContext;

  test.beforeEach(async ({ browser, owner }) => {
    admin = await joinAs(browser, owner, {
      name: "Csrf Admin",
      email: `csrf-admin-${Date.now()}@example.com`,
      role: "admin",
    });
  });
  test.afterEach(async () => {
    await admin.close();
  });

  test("a page on another loopback port cannot write through the admin's session", async ({
    owner,
    baseURL,
  }) => {
    const tag = `csrf${Date.now()}`;
    const target = baseURL ?? "";
    // Untyped Blob bodies (no Content-Type: no CORS preflight), the admin's cookie goes along
    // (same site: only the port differs), and a classic form post for good measure.
    const attacks = [
      [
        "/api/v1/servers",
        {
          name: `${tag}-server`,
          transport: "streamable-http",
          url: "http://127.0.0.1:9/mcp",
          headers: { "X-Token": "stolen" },
        },
      ],
      ["/api/v1/principals", { name: `${tag}-principal` }],
      ["/api/v1/api-keys", { name: `${tag}-key`, scopes: ["admin"] }],
      ["/api/v1/invitations", { role: "admin" }],
    ] as const;
    const html = `<!doctype html><html data-hydrated><title>cute cats</title>
      <form id="f" method="post" enctype="text/plain" target="sink" action="${target}/api/v1/principals">
        <input name='{"name":"${tag}-form","x":"' value='"}'>
      </form>
      <iframe name="sink"></iframe>
      <script>
        const attacks = ${JSON.stringify(attacks)};
        Promise.allSettled(attacks.map(([path, body]) =>
          fetch(${JSON.stringify(target)} + path, {
            method: "POST", mode: "no-cors", credentials: "include",
            body: new Blob([JSON.stringify(body)]),
          }))).then(() => {
            document.querySelector("iframe").onload = () => { document.title = "done"; };
            document.getElementById("f").submit();
          });
      </script>`;
    const invitationsBefore = await owner.get("/api/v1/invitations");
    const pendingBefore = ((await invitationsBefore.json()) as { invitations: unknown[] }).invitations.length;
    const site = await startAttackerSite(html);
    try {
      const page = await admin.newPage();
      await page.goto(site.url);
      await expect(page).toHaveTitle("done");

      expect(await namesOf(owner, "/api/v1/servers", "servers")).not.toContain(`${tag}-server`);
      const principals = await namesOf(owner, "/api/v1/principals", "principals");
      expect(principals).not.toContain(`${tag}-principal`);
      expect(principals.filter((name) => name.startsWith(`${tag}-form`))).toEqual([]);
      expect(await namesOf(owner, "/api/v1/api-keys", "apiKeys")).not.toContain(`${tag}-key`);
      const invitationsAfter = await owner.get("/api/v1/invitations");
      expect(((await invitationsAfter.json()) as { invitations: unknown[] }).invitations).toHaveLength(
        pendingBefore,
      );
    } finally {
      await site.close();
    }
  });

  test("the admin's own page still writes, and REST writes must say they are JSON", async ({ baseURL }) => {
    const page = await admin.newPage();
    await page.goto("/");
    const origin = new URL(baseURL ?? "").origin;
    const tag = `same-origin-${Date.now()}`;
    const [typed, untyped] = await page.evaluate(
      async ([name]) => {
        const post = (init: RequestInit) => fetch("/api/v1/principals", { method: "POST", ...init });
        const a = await post({
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ name }),
        });
        const b = await post({ body: new Blob([JSON.stringify({ name: `${name}-untyped` })]) });
        return [
          { status: a.status },
          { status: b.status, body: (await b.json()) as { error: { code: string; message: string } } },
        ];
      },
      [tag],
    );
    expect(typed.status).toBe(201);
    expect(untyped.status).toBe(415);
    expect(untyped.body.error.message).toMatch(/Content-Type: application\/json/);
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  test("another site cannot frame the dashboard", async ({ baseURL }) => {
    const target = baseURL ?? "";
    const page = await admin.newPage();
    // Every page and API answer carries the headers that forbid framing and sniffing.
    for (const path of ["/", "/settings", "/api/v1/health", "/mcp"]) {
      const response = await page.request.get(`${target}${path}`);
      const headers = response.headers();
      expect(headers["content-security-policy"], path).toMatch(/frame-ancestors 'none'/);
      expect(headers["content-security-policy"], path).toMatch(/object-src 'none'/);
      expect(headers["content-security-policy"], path).toMatch(/base-uri 'self'/);
      expect(headers["x-frame-options"], path).toBe("DENY");
      expect(headers["x-content-type-options"], path).toBe("nosniff");
      expect(headers["referrer-policy"], path).toMatch(/^(no-referrer|strict-origin)/);
      expect(headers["permissions-policy"], path).toMatch(/camera=\(\)/);
    }

    const site = await startAttackerSite(`<!doctype html><html data-hydrated><title>framing</title>
      <iframe id="victim" src="${target}/settings" width="800" height="600"></iframe>
      <script>document.getElementById("victim").onload = () => { document.title = "frame loaded"; };</script>`);
    try {
      await page.goto(site.url);
      await expect(page).toHaveTitle("frame loaded");
      const victim = page.frames().find((frame) => frame !== page.mainFrame());
      expect(victim).toBeDefined();
      // Chromium replaces a frame it refused to render with its own error page.
      expect(victim?.url()).not.toContain(target);
      await expect(page.frameLocator("#victim").getByRole("heading", { name: "Settings" })).toHaveCount(0);
    } finally {
      await site.close();
    }
  });
});
