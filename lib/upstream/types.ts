/** What lib/upstream offers the browser: types only, so a component importing them brings no server code along (.dependency-cruiser.cjs). */
export type { StdioReach } from "./transport/stdio-identity";
