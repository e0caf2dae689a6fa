/** What lib/limits offers the browser: types only, so a component importing them brings no server code along (.dependency-cruiser.cjs). */
export type { LimitsPolicy } from "./limits-policy";
