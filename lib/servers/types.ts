/** What lib/servers offers the browser: types only, so a component importing them brings no server code along (.dependency-cruiser.cjs). */
export type { ClientExport } from "./import-export/export-client-config";
export type { ImportAction, ImportReport } from "./import-export/import-servers";
export type { ReplicaSummary, ServerReplicaDto } from "./replica-state";
export type { ServerDto } from "./server-dto";
export type { ServerDiagnosticsDto } from "./server-operations";
