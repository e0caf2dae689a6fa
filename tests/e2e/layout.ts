import { expect, type Page } from "@playwright/test";

/**
 * Every table cell on the page shows its content whole at the window's width: no heading, badge
 * or button spilling past its column (into the next one, or cut off at the table's edge).
 */
export async function expectTableCellsWhole(page: Page): Promise<void> {
  // Polled: a row that has just arrived may not be laid out yet; a real spill stays.
  await expect
    .poll(
      () =>
        page
          .locator("table")
          .evaluateAll((tables) =>
            tables.flatMap((table) =>
              [...table.querySelectorAll("th, td")]
                .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
                .map((cell) => (cell.textContent ?? "").trim().slice(0, 60)),
            ),
          ),
      { message: "cells whose content spills out" },
    )
    .toEqual([]);
}
