import { EmptyState } from "@/components/ui/empty-state";
import type { OpenApiDocument } from "@/lib/openapi/types";
import { OperationCard } from "./operation-card";
import { type ApiDocument, groupByTag } from "./operations";
import { Code, RichText } from "./rich-text";
import { TypeDefinitions } from "./type-definitions";

/**
 * The REST API's reference, read from its OpenAPI document: a contents list, then each tag's
 * operations (folded, one anchor each: /api#listServers), then the named types.
 */
export function ApiReference({ document }: { document: OpenApiDocument }) {
  const doc = document as unknown as ApiDocument;
  const groups = groupByTag(doc);
  const components = doc.components?.schemas ?? {};
  const typeNames = new Set(Object.keys(components));
  if (groups.length === 0) {
    return <EmptyState title="No operations">The document lists no paths.</EmptyState>;
  }
  return (
    <div className="grid gap-8 lg:grid-cols-[12rem_minmax(0,1fr)]">
      <nav aria-label="API sections" className="lg:sticky lg:top-6 lg:self-start">
        <ul className="space-y-1 text-sm">
          {groups.map((group) => (
            <li key={group.name}>
              <a
                href={`#tag-${slug(group.name)}`}
                className="text-slate-700 hover:text-indigo-700 hover:underline"
              >
                {group.name}
              </a>
              <span className="ml-1 text-xs text-slate-600">{group.operations.length}</span>
            </li>
          ))}
          <li className="pt-2">
            <a href="#types" className="text-slate-700 hover:text-indigo-700 hover:underline">
              Types
            </a>
          </li>
        </ul>
      </nav>
      <div className="min-w-0 space-y-10">
        <section
          aria-label="About this API"
          className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700 shadow-sm"
        >
          <RichText text={doc.info.description ?? ""} />
          <p>
            Version <Code>{doc.info.version}</Code>. The machine-readable document:{" "}
            <a href="/api/v1/openapi.json" className="font-mono text-indigo-700 underline underline-offset-2">
              /api/v1/openapi.json
            </a>{" "}
            (OpenAPI 3.1).
          </p>
        </section>
        {groups.map((group) => (
          <section
            key={group.name}
            id={`tag-${slug(group.name)}`}
            aria-labelledby={`tag-${slug(group.name)}-title`}
            className="scroll-mt-6"
          >
            <h2 id={`tag-${slug(group.name)}-title`} className="text-lg font-semibold text-slate-900">
              {group.name}
            </h2>
            {group.description ? <p className="mt-1 text-sm text-slate-600">{group.description}</p> : null}
            <div className="mt-3 space-y-2">
              {group.operations.map((operation) => (
                <OperationCard
                  key={operation.id}
                  operation={operation}
                  components={components}
                  typeNames={typeNames}
                />
              ))}
            </div>
          </section>
        ))}
        <section id="types" aria-labelledby="types-title" className="scroll-mt-6">
          <h2 id="types-title" className="mb-3 text-lg font-semibold text-slate-900">
            Types
          </h2>
          <TypeDefinitions components={components} typeNames={typeNames} />
        </section>
      </div>
    </div>
  );
}

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
