import type { Locator, Page } from "@playwright/test";
import { expect } from "./fixtures";

/*
 * The sidebar's menus, driven as a person would: the workspace switcher (a menu button named
 * "Workspace <current one>") and the account menu.
 */

export const workspaceMenuButton = (page: Page): Locator => page.getByRole("button", { name: /^Workspace / });

const startsWith = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`);

/** Opens the switcher and chooses a workspace with the mouse. */
export async function switchWorkspace(page: Page, name: string): Promise<void> {
  await workspaceMenuButton(page).click();
  await page.getByRole("menuitemradio", { name: startsWith(name) }).click();
  await expect(workspaceMenuButton(page)).toHaveAccessibleName(`Workspace ${name}`);
}

/** Opens the switcher and chooses "+ New workspace…"; returns the dialog it opens. */
export async function openNewWorkspaceDialog(page: Page): Promise<Locator> {
  await workspaceMenuButton(page).click();
  await page.getByRole("menuitem", { name: "+ New workspace…" }).click();
  const dialog = page.getByRole("dialog", { name: "New workspace" });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Opens the account menu at the foot of the sidebar and signs out. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: /^Account: / }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
}
