import type { ReactNode } from "react";
import { FieldsTable, TypeText } from "./fields-table";
import { MethodBadge } from "./method-badge";
import type { ApiOperation } from "./operations";
import { Code, InlineText, RichText } from "./rich-text";
import { type Components, fieldGroups, typeOf } from "./schema-fields";

/**
 * One operation, folded: the summary line (method, path, what it does) opens it with the keyboard
 * like any <details>; inside, who may call it, parameters, the body's fields and the answers.
 */
export function OperationCard({
  operation,
  components,
  typeNames,
}: {
  operation: ApiOperation;
  components: Components;
  typeNames: ReadonlySet<string>;
}) {
  const bodyGroups = operation.body ? fieldGroups(operation.body.schema, components) : [];
  return (
    <details
      id={operation.id}
      className="group scroll-mt-6 rounded-lg border border-slate-200 bg-white shadow-sm"
    >
      <summary className="flex cursor-pointer list-none flex-wrap items-center gap-3 rounded-lg px-4 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500">
        <span aria-hidden className="inline-block text-slate-400 transition-transform group-open:rotate-90">
          ▸
        </span>
        <MethodBadge method={operation.method} />
        <span className="min-w-0 break-all font-mono text-sm text-slate-900">{operation.path}</span>
        <span className="text-sm text-slate-600">{operation.summary}</span>
      </summary>
      <div className="space-y-5 border-t border-slate-100 px-4 py-4 text-sm">
        <RichText text={operation.description} className="text-slate-700" />
        {operation.access ? (
          <p className="text-slate-700">
            <span className="font-medium text-slate-900">Who may call it: </span>
            {operation.access}
          </p>
        ) : null}
        {operation.parameters.length > 0 ? (
          <Section title="Parameters">
            <ul className="space-y-1.5">
              {operation.parameters.map((p) => (
                <li key={`${p.in}-${p.name}`} className="flex flex-wrap items-baseline gap-2">
                  <Code>{p.name}</Code>
                  <span className="text-xs text-slate-500">
                    in {p.in}
                    {p.required ? ", required" : ""}
                  </span>
                  {p.schema ? (
                    <span className="font-mono text-xs text-slate-700">
                      <TypeText text={typeOf(p.schema, components)} typeNames={typeNames} />
                    </span>
                  ) : null}
                  {p.description ? (
                    <span className="text-slate-600">
                      — <InlineText text={p.description} />
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
          </Section>
        ) : null}
        {operation.body ? (
          <Section title={`Body (JSON${operation.body.isRequired ? "" : ", may be left out"})`}>
            <FieldsTable groups={bodyGroups} typeNames={typeNames} caption={`${operation.id} request body`} />
          </Section>
        ) : null}
        <Section title="Answers">
          <ul className="space-y-1.5">
            {operation.responses.map((r) => (
              <li key={r.status} className="flex flex-wrap items-baseline gap-2">
                <span
                  className={`font-mono font-semibold ${r.status.startsWith("2") ? "text-emerald-700" : "text-red-700"}`}
                >
                  {r.status}
                </span>
                <span className="text-slate-700">
                  <InlineText text={r.description} />
                </span>
                {r.schema && r.status.startsWith("2") ? (
                  <span className="font-mono text-xs text-slate-600">
                    {r.mediaType !== "application/json" ? `${r.mediaType} ` : ""}
                    <TypeText text={shapeOf(r.schema, components)} typeNames={typeNames} />
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        </Section>
      </div>
    </details>
  );
}

/** An answer's shape on one line: `{ servers: list of Server }`. */
function shapeOf(schema: Parameters<typeof typeOf>[0], components: Components): string {
  const fields = Object.entries(schema.properties ?? {});
  if (fields.length === 0 || schema.$ref) return typeOf(schema, components);
  return `{ ${fields.map(([name, field]) => `${name}: ${typeOf(field, components)}`).join(", ")} }`;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section>
      <h4 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h4>
      {children}
    </section>
  );
}
