/** What lib/gateway offers the browser: types only, so a component importing them brings no server code along (.dependency-cruiser.cjs). */
export type { GatewayStatus, ToolListSizes } from "./settings/gateway-status";
export type { GatewaySettings } from "./settings/loopback-mapping";
