"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { ButtonLink } from "@/components/ui/button";
import { pluralize } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { QueryFallback } from "@/components/ui/query-fallback";
import { SectionTitle } from "@/components/ui/section-title";
import { CreatePrincipalKey } from "./create-principal-key";
import { DeletePrincipalButton } from "./delete-principal-button";
import { GrantsEditor } from "./grants-editor";
import { PrincipalKeys } from "./principal-keys";
import { principalQuery } from "./principal-queries";

/** /principals/[id]: keys to get in, grants for what it may call. */
export function PrincipalDetail(props: { id: string; canManage: boolean; isJustCreated: boolean }) {
  const { data: principal, error } = useQuery(principalQuery(props.id));
  if (!principal) return <QueryFallback error={error} what="the principal" />;
  const activeKeys = principal.keys.filter((key) => !key.revokedAt).length;

  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link href="/principals" className="text-slate-500 hover:text-slate-800 hover:underline">
          ← Principals
        </Link>
      </nav>
      <PageHeader
        title={principal.name}
        description={principal.description ?? "An agent or MCP client of this workspace."}
        actions={
          <>
            <ButtonLink variant="secondary" href={`/calls?requester=${encodeURIComponent(principal.id)}`}>
              Its calls
            </ButtonLink>
            {props.canManage ? <DeletePrincipalButton id={principal.id} name={principal.name} /> : null}
          </>
        }
      />
      {props.isJustCreated && activeKeys === 0 ? (
        <div className="mb-4">
          <Alert tone="info" title="Principal created">
            Next, create its key (shown once) and grant it the tools it needs.
          </Alert>
        </div>
      ) : null}
      <Panel title="Keys" aside={`${activeKeys} active · gateway scope only`}>
        {props.canManage ? (
          <div className="mb-4">
            <CreatePrincipalKey principalId={principal.id} autoFocus={props.isJustCreated} />
          </div>
        ) : null}
        <PrincipalKeys principalId={principal.id} keys={principal.keys} canManage={props.canManage} />
      </Panel>
      <Panel title="Grants" aside={pluralize(principal.grants.length, "pattern")}>
        <GrantsEditor principal={principal} canManage={props.canManage} />
      </Panel>
    </>
  );
}

function Panel({ title, aside, children }: { title: string; aside: string; children: ReactNode }) {
  return (
    <section className="mb-8">
      <SectionTitle aside={aside}>{title}</SectionTitle>
      {children}
    </section>
  );
}
