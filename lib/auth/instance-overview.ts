import type { Database } from "@/lib/db/client";
import type { InstancePolicy } from "@/lib/policy/instance-policy-schema";
import { getInstancePolicy } from "@/lib/policy/instance-policy-store";
import { describeStdioReach, type StdioReach } from "@/lib/upstream/transport/stdio-identity";
import { type InstanceOwnerDto, listInstanceOwners } from "./instance-owners";

export type InstanceOverview = {
  policy: InstancePolicy;
  owners: InstanceOwnerDto[];
  /** What a stdio server can reach on this machine. */
  stdio: StdioReach;
  /** The PATH programs are resolved on (Switchboard's own, never a server's). */
  searchPath: string;
};

/** Settings → Instance and GET /api/v1/instance: the policy, its owners, and what a stdio server can reach. */
export async function getInstanceOverview(db: Database): Promise<InstanceOverview> {
  const [policy, owners] = await Promise.all([getInstancePolicy(db), listInstanceOwners(db)]);
  return { policy, owners, stdio: describeStdioReach(), searchPath: process.env.PATH ?? "" };
}
