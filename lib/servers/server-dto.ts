import type { McpServer, StoredAuth, StoredValue } from "@/db/schema";
import type { Transport } from "./config-schema";
import {
  combineReplicaStates,
  type ReplicaStatusRow,
  type ReplicaSummary,
  type ServerReplicaDto,
} from "./replica-state";
import { shellJoin } from "./shell-quote";

/** A value as shown to people and scripts: literals as they are, references with set/unset only. */
export type ValueView = string | { secret: string; isSet: boolean } | { fromEnv: string; isSet: boolean };

export type ServerDto = {
  id: string;
  name: string;
  displayName: string | null;
  description: string | null;
  transport: Transport;
  /** What the server points at, for lists: the command line (quoted as a shell needs it) or the URL. */
  target: string;
  command: string | null;
  /** the program that runs: the command resolved on Switchboard's PATH when it was saved */
  programPath: string | null;
  /** the launch was saved by an instance owner (launch specs open to owners only need this) */
  launchApprovedByOwner: boolean;
  args: string[];
  cwd: string | null;
  env: Record<string, ValueView>;
  url: string | null;
  headers: Record<string, ValueView>;
  auth: {
    type: StoredAuth["type"];
    headerName?: string;
    credential?: ValueView;
    /** OAuth: a client id an admin entered, its secret (by reference), the scopes to ask for */
    clientId?: string;
    clientSecret?: ValueView;
    scopes?: string[];
  };
  enabled: boolean;
  connectTimeoutMs: number;
  callTimeoutMs: number;
  healthIntervalSeconds: number;
  resourceReadsNeedApproval: boolean;
  /**
   * Connection state; "unknown" until a connection pool reports one. With several replicas, the
   * worst state among the live ones (lib/servers/replica-state.ts).
   */
  status: string;
  lastError: string | null;
  /** Each replica's state of the server: the live ones, and those gone silent (not counted). */
  replicas: ServerReplicaDto[];
  /** How many live replicas have it ready, of how many: "ready on 2 of 3". */
  replicaSummary: ReplicaSummary;
  createdAt: string;
  updatedAt: string;
};

export function secretNamesOf(row: Pick<McpServer, "env" | "headers" | "auth">): string[] {
  const values = [...Object.values(row.env), ...Object.values(row.headers)];
  if ("credential" in row.auth) values.push(row.auth.credential);
  if (row.auth.type === "oauth" && row.auth.clientSecret) values.push(row.auth.clientSecret);
  return values.flatMap((v) => (typeof v === "object" && "secret" in v ? [v.secret] : []));
}

export function toServerDto(
  row: McpServer,
  context: {
    setSecrets: Set<string>;
    /** whether the instance policy lets servers read this variable: only then is "set" said */
    canReadEnv: (name: string) => boolean;
    /** server_status: the state whichever replica reported last */
    status?: { state: string; lastError: string | null };
    /** server_replica_status: each replica's, with which replicas are live */
    replicas?: { rows: readonly ReplicaStatusRow[]; liveReplicaIds: readonly string[] };
  },
): ServerDto {
  const view = (value: StoredValue): ValueView => {
    if (typeof value === "string") return value;
    if ("secret" in value) return { secret: value.secret, isSet: context.setSecrets.has(value.secret) };
    // Whether an arbitrary variable exists in Switchboard's environment is nobody's business.
    const isSet = context.canReadEnv(value.fromEnv) && process.env[value.fromEnv] !== undefined;
    return { fromEnv: value.fromEnv, isSet };
  };
  const viewAll = (record: Record<string, StoredValue>) =>
    Object.fromEntries(Object.entries(record).map(([k, v]) => [k, view(v)]));
  const auth = row.auth;
  const combined = combineReplicaStates({
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    shared: context.status,
    rows: context.replicas?.rows ?? [],
    liveReplicaIds: context.replicas?.liveReplicaIds ?? [],
  });
  return {
    id: row.id,
    name: row.name,
    displayName: row.displayName,
    description: row.description,
    transport: row.transport,
    target: row.transport === "stdio" ? shellJoin([row.command ?? "", ...row.args]) : (row.url ?? ""),
    command: row.command,
    programPath: row.programPath,
    launchApprovedByOwner: row.launchApprovedBy !== null,
    args: row.args,
    cwd: row.cwd,
    env: viewAll(row.env),
    url: row.url,
    headers: viewAll(row.headers),
    auth: {
      type: auth.type,
      ...("headerName" in auth ? { headerName: auth.headerName } : {}),
      ...("credential" in auth ? { credential: view(auth.credential) } : {}),
      ...(auth.type === "oauth"
        ? {
            ...(auth.clientId ? { clientId: auth.clientId } : {}),
            ...(auth.clientSecret ? { clientSecret: view(auth.clientSecret) } : {}),
            ...(auth.scopes ? { scopes: auth.scopes } : {}),
          }
        : {}),
    },
    enabled: row.enabled,
    connectTimeoutMs: row.connectTimeoutMs,
    callTimeoutMs: row.callTimeoutMs,
    healthIntervalSeconds: row.healthIntervalSeconds,
    resourceReadsNeedApproval: row.resourceReadsNeedApproval,
    status: combined.state ?? "unknown",
    lastError: combined.lastError,
    replicas: combined.replicas,
    replicaSummary: combined.replicaSummary,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
