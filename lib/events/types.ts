/** What lib/events offers the browser: types only, so a component importing them brings no server code along (.dependency-cruiser.cjs). */
export type { EventPage } from "./history";
