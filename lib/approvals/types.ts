/** What lib/approvals offers the browser: types only, so a component importing them brings no server code along (.dependency-cruiser.cjs). */

export type { AllowRuleDto } from "./allow-rules";
export type { DecisionRights } from "./decision-rights";
export type { ApprovalDto } from "./list-approvals";
