import { type Command, InvalidArgumentError } from "commander";
import { contextOf, withJsonOption } from "../context";
import { print, printJson, renderTable } from "../output";
import type { components } from "../wire-types.generated";

/**
 * `switchboard policy limits`: Settings → Limits from the terminal. Without options it shows the
 * defaults and overrides; with them it changes the workspace default, or one principal's or
 * server's override (--principal / --server), leaving every other field as it is (the REST PUT
 * takes the whole policy: the command reads it first). Ranges are the server's to check and word.
 */

type LimitsWire = Required<components["schemas"]["LimitsPolicy"]>;
type Limit = number | null;
type Fields = { callsPerMinute?: Limit; concurrentCalls?: Limit; pendingApprovals?: Limit };
const PATH = "/api/v1/policy/limits";

/** "30" → 30; "unlimited" → null (the word a shell keeps for "no limit"). */
function limit(value: string): Limit {
  if (value === "unlimited") return null;
  if (!/^-?\d+$/.test(value))
    throw new InvalidArgumentError(`expected a whole number or "unlimited", got "${value}".`);
  return Number(value);
}

type Options = {
  principal?: string;
  server?: string;
  perMinute?: Limit;
  inFlight?: Limit;
  pending?: Limit;
  inherit?: boolean;
};

function changeOf(options: Options): Fields {
  return {
    ...(options.perMinute !== undefined ? { callsPerMinute: options.perMinute } : {}),
    ...(options.inFlight !== undefined ? { concurrentCalls: options.inFlight } : {}),
    ...(options.pending !== undefined ? { pendingApprovals: options.pending } : {}),
  };
}

export function applied(current: LimitsWire, options: Options): LimitsWire | undefined {
  const change = changeOf(options);
  const changes = Object.keys(change).length > 0 || options.inherit;
  if (!changes) return undefined;
  if (options.principal !== undefined) {
    const { [options.principal]: old, ...rest } = current.principals;
    return {
      ...current,
      principals: options.inherit ? rest : { ...rest, [options.principal]: { ...old, ...change } },
    };
  }
  if (options.server !== undefined) {
    const { [options.server]: old, ...rest } = current.servers;
    return {
      ...current,
      servers: options.inherit ? rest : { ...rest, [options.server]: { ...old, ...change } },
    };
  }
  const { pendingApprovals, ...serverChange } = change;
  return {
    ...current,
    principal: { ...current.principal, ...change },
    server: { ...current.server, ...serverChange },
  };
}

const shown = (value: Limit | undefined, inherited: string) =>
  value === undefined ? inherited : value === null ? "unlimited" : String(value);

export function registerPolicyLimits(policy: Command): void {
  withJsonOption(
    policy
      .command("limits")
      .description("calls per minute, in flight and waiting for approval; options change them")
      .option("--principal <name>", "change this principal's override (default: every principal and server)")
      .option("--server <name>", "change this server's override")
      .option("--per-minute <n|unlimited>", "calls per minute (1–100000)", limit)
      .option("--in-flight <n|unlimited>", "calls in flight at once (1–1000)", limit)
      .option("--pending <n|unlimited>", "calls of a principal waiting for approval (1–10000)", limit)
      .option("--inherit", "remove the override of --principal or --server: the defaults apply again"),
  ).action(async (options: Options, command: Command) => {
    const { client, json } = contextOf(command);
    if (options.principal !== undefined && options.server !== undefined)
      throw new InvalidArgumentError("use --principal or --server, not both.");
    const { policy: current } = await client.get<{ policy: LimitsWire }>(PATH);
    const next = applied(current, options);
    const limits = next ? (await client.put<{ policy: LimitsWire }>(PATH, next)).policy : current;
    if (json) return printJson(limits);
    const rows: Array<{ who: string } & Fields> = [
      { who: "every principal", ...limits.principal },
      { who: "every server", ...limits.server },
      ...Object.entries(limits.principals).map(([name, o]) => ({ who: `principal ${name}`, ...o })),
      ...Object.entries(limits.servers).map(([name, o]) => ({ who: `server ${name}`, ...o })),
    ];
    print(
      renderTable(rows, [
        { header: "Applies to", value: (r) => r.who },
        { header: "Per minute", value: (r) => shown(r.callsPerMinute, "(default)") },
        { header: "In flight", value: (r) => shown(r.concurrentCalls, "(default)") },
        {
          header: "Waiting",
          value: (r) =>
            r.who.startsWith("server") || r.who === "every server"
              ? "—"
              : shown(r.pendingApprovals, "(default)"),
        },
      ]),
    );
  });
}
