/** What lib/policy offers the browser: types only, so a component importing them brings no server code along (.dependency-cruiser.cjs). */
export type { ApprovalPolicy } from "./approval-rules";
export type { EffectivePolicy } from "./effective-policy";
export type { EffectClass } from "./effects";
export type { EgressPolicy } from "./egress-schema";
export type { InstancePolicy, InstancePolicyInput } from "./instance-policy-schema";
