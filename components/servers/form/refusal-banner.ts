import type { FieldErrors } from "@/lib/errors";
import type { FormState } from "./form-state";

/** The error keys a field of the form shows for this transport (env and headers by their rows' names). */
const FIELDS_SHOWN = {
  common: [
    "name",
    "displayName",
    "description",
    "connectTimeoutMs",
    "callTimeoutMs",
    "healthIntervalSeconds",
  ],
  stdio: ["command", "cwd", "args"],
  http: ["url", "auth", "auth.type", "auth.headerName", "auth.credential"],
};

function isShownBeside(field: string, s: FormState): boolean {
  if (FIELDS_SHOWN.common.includes(field)) return true;
  if (s.transport === "stdio") {
    return FIELDS_SHOWN.stdio.includes(field) || /^(args|env)\./.test(field) || field === "env";
  }
  if (field === "auth.credential") return s.authType !== "none";
  if (field === "auth.headerName") return s.authType === "api_key" || s.authType === "custom_header";
  return FIELDS_SHOWN.http.includes(field) || field === "headers" || field.startsWith("headers.");
}

/**
 * The message above a refused form. Field errors are shown beside their fields; the banner says
 * where to look (and which policy refused), and says itself only what no field of the form shows.
 */
export function describeRefusal(state: FormState, message: string, fieldErrors: FieldErrors): string {
  const shown = Object.keys(fieldErrors).filter((field) => isShownBeside(field, state));
  const unshown = Object.entries(fieldErrors)
    .filter(([field]) => !shown.includes(field))
    .flatMap(([, messages]) => messages);
  const refusedBy = /^Refused by (the instance policy|the workspace's egress policy)/.exec(message)?.[1];
  const banner: string[] = [];
  if (shown.length > 0) {
    if (refusedBy) banner.push(`Refused by ${refusedBy}.`);
    banner.push(
      `Check the ${shown.length === 1 ? "highlighted field" : `${shown.length} highlighted fields`} below.`,
    );
  }
  if (unshown.length > 0) banner.push(...unshown);
  else if (shown.length === 0) banner.push(message);
  return banner.join(" ");
}
