/** What lib/catalog offers the browser: types only, so a component importing them brings no server code along (.dependency-cruiser.cjs). */
export type { GovernedToolDto, GovernedToolPage } from "./governed-tools";
export type { CatalogDiff, KindDiff } from "./hashing";
export type { CatalogEntryDto, SnapshotDto, ToolDto } from "./read-catalog";
