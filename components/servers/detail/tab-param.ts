import { parseAsStringLiteral } from "nuqs";

export const detailTabs = ["tools", "resources", "prompts", "health", "diagnostics", "snapshots"] as const;
export type DetailTab = (typeof detailTabs)[number];

/**
 * `?tab=` of a server's page, read with nuqs (`useQueryState("tab", tabParam)`), so a link or a
 * reload opens the same tab; an unknown value reads as the first tab, which the URL leaves out.
 * Replaced, not pushed (nuqs' default), so arrowing through the tabs does not fill the back button.
 */
export const tabParam = parseAsStringLiteral(detailTabs).withDefault("tools");
