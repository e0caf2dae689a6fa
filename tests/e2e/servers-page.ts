import { type APIRequestContext, expect, type Locator, type Page } from "@playwright/test";
import { e2eBootstrapKey } from "../../playwright.config";
import { test } from "./fixtures";

/** Page object for /servers and its add/edit form. */
export class ServersPage {
  constructor(readonly page: Page) {}

  async goto() {
    await this.page.goto("/servers");
    await expect(this.page.getByRole("heading", { name: "Servers", level: 1 })).toBeVisible();
  }

  row(name: string): Locator {
    return this.page.getByTestId(`server-row-${name}`);
  }

  async openAddForm() {
    await this.page.getByRole("link", { name: "Add server" }).click();
    await expect(this.page.getByRole("heading", { name: "Add server", level: 1 })).toBeVisible();
  }

  /** A text control by its accessible name (the label without the required marker). */
  field(label: string): Locator {
    return this.page.getByRole("textbox", { name: label, exact: true });
  }

  async chooseTransport(label: "stdio" | "Streamable HTTP" | "SSE") {
    await this.page.getByText(label, { exact: true }).click();
  }

  async submit(name: "Add server" | "Save changes") {
    await this.page.getByRole("button", { name }).click();
  }
}

/** Waits until the server `name` is connected (its status "ready"), as read through the REST API. */
export async function waitUntilReady(api: APIRequestContext, name: string, timeout = 30_000): Promise<void> {
  await expect
    .poll(
      async () => {
        const body = (await (await api.get("/api/v1/servers")).json()) as {
          servers: { name: string; status: string }[];
        };
        return body.servers.find((server) => server.name === name)?.status;
      },
      { timeout },
    )
    .toBe("ready");
}

/** Deletes the server `name` after the file's tests, as the bootstrap admin, whatever they left. */
export function removeServerAfterAll(name: string): void {
  test.afterAll(async ({ playwright, baseURL }) => {
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { Authorization: `Bearer ${e2eBootstrapKey}` },
    });
    await api.delete(`/api/v1/servers/${name}`);
    await api.dispose();
  });
}
