/** What lib/elicitations offers the browser: types only (.dependency-cruiser.cjs). */

export type { ElicitationAction } from "./answer-elicitation";
export type { ElicitationDto } from "./elicitation-dto";
