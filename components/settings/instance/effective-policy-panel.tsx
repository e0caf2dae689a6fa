import Link from "next/link";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import type { EffectivePolicy } from "@/lib/policy/types";
import { AudienceBadge, SpecPattern } from "./spec-pattern";

function Names({ names, none }: { names: string[]; none: ReactNode }) {
  if (names.length === 0) return <span className="text-slate-500">{none}</span>;
  return (
    <ul className="flex flex-wrap gap-1.5">
      {names.map((name) => (
        <li key={name} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800">
          {name}
        </li>
      ))}
    </ul>
  );
}

const yesNo = (allowed: boolean) =>
  allowed ? <Badge tone="amber">allowed</Badge> : <Badge tone="neutral">refused</Badge>;

/**
 * Settings → Egress, under the form: what this workspace's servers may do, all things considered
 * (the instance policy narrowed by this workspace's), so nobody intersects two lists in their head.
 */
export function EffectivePolicyPanel({
  effective,
  isInstanceOwner,
}: {
  effective: EffectivePolicy;
  isInstanceOwner: boolean;
}) {
  const { http } = effective;
  return (
    <section
      aria-labelledby="effective-policy-heading"
      data-testid="effective-policy"
      className="mt-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="effective-policy-heading" className="text-base font-semibold text-slate-900">
        Effective policy
      </h2>
      <p className="mt-1 max-w-3xl text-sm text-slate-600">
        The instance policy is set by instance owners
        {isInstanceOwner ? (
          <>
            {" "}
            (
            <Link href="/settings/instance" className="text-indigo-700 underline hover:text-indigo-900">
              Settings → Instance
            </Link>
            )
          </>
        ) : null}
        ; this workspace&apos;s policy above can only narrow it. This is what the two allow together.
      </p>
      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-4 text-sm sm:grid-cols-[14rem_minmax(0,1fr)]">
        <dt className="font-medium text-slate-800">Launches stdio servers may use</dt>
        <dd data-testid="effective-launch-specs">
          {effective.launchSpecs.length === 0 ? (
            <span className="text-slate-500">None: no stdio server can start in this workspace.</span>
          ) : (
            <ul className="space-y-1.5">
              {effective.launchSpecs.map((spec) => (
                <li
                  key={[spec.program, ...spec.args, spec.rest, spec.audience].join("\u0000")}
                  className="flex flex-wrap items-center gap-2"
                >
                  <SpecPattern spec={spec} />
                  <AudienceBadge audience={spec.audience} />
                </li>
              ))}
            </ul>
          )}
          <p className="mt-1 text-xs text-slate-500">
            &ldquo;owners only&rdquo;: an instance owner must register the server; any admin here may register
            the others.
          </p>
        </dd>
        <dt className="font-medium text-slate-800">URL schemes</dt>
        <dd>
          <Names names={http.allowedSchemes} none="None: no HTTP server can be reached." />
        </dd>
        <dt className="font-medium text-slate-800">Loopback addresses</dt>
        <dd>{yesNo(http.allowLoopback)}</dd>
        <dt className="font-medium text-slate-800">Private networks</dt>
        <dd>{yesNo(http.allowPrivate)}</dd>
        <dt className="font-medium text-slate-800">Allowed hosts</dt>
        <dd>
          <Names names={http.allowHosts} none="None" />
        </dd>
        <dt className="font-medium text-slate-800">Denied hosts</dt>
        <dd>
          <Names names={http.denyHosts} none="None" />
          <p className="mt-1 text-xs text-slate-500">
            The instance&apos;s and this workspace&apos;s together.
          </p>
        </dd>
        <dt className="font-medium text-slate-800">Variables servers may read</dt>
        <dd data-testid="effective-from-env">
          <Names
            names={effective.fromEnv}
            none={
              <>
                None: <code className="font-mono">{'{"fromEnv": …}'}</code> reads nothing; store values as
                secrets.
              </>
            }
          />
        </dd>
        <dt className="font-medium text-slate-800">Launch variables env may set</dt>
        <dd>
          <Names names={effective.allowedEnv} none="None of the variables that change what runs." />
        </dd>
        <dt className="font-medium text-slate-800">Working folders</dt>
        <dd>
          <Names names={effective.cwdRoots} none="None: a stdio server cannot set a working directory." />
        </dd>
      </dl>
    </section>
  );
}
