export * from "./auth";
export * from "./calls";
export * from "./catalog";
export * from "./policies";
export * from "./principals";
export * from "./secrets";
export * from "./servers";
export * from "./tenants";
