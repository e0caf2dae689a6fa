/** What lib/approvals offers the browser: types only, so a component importing them brings no server code along (.dependency-cruiser.cjs). */
export type { ApprovalDto } from "./list-approvals";
