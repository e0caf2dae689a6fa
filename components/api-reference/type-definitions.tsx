import { FieldsTable, TypeText } from "./fields-table";
import { RichText } from "./rich-text";
import { type Components, fieldGroups, typeOf } from "./schema-fields";

/** The document's named types, each under a heading its mentions link to (#type-Name). */
export function TypeDefinitions({
  components,
  typeNames,
}: {
  components: Components;
  typeNames: ReadonlySet<string>;
}) {
  const names = Object.keys(components).sort((a, b) => a.localeCompare(b));
  return (
    <div className="space-y-6">
      {names.map((name) => {
        const schema = components[name] ?? {};
        const groups = fieldGroups(schema, components);
        return (
          <section
            key={name}
            id={`type-${name}`}
            aria-labelledby={`type-${name}-title`}
            className="scroll-mt-6"
          >
            <h3 id={`type-${name}-title`} className="font-mono text-base font-semibold text-slate-900">
              <a href={`#type-${name}`} className="hover:underline">
                {name}
              </a>
            </h3>
            {schema.description ? (
              <RichText text={schema.description} className="mt-1 text-sm text-slate-600" />
            ) : null}
            <div className="mt-2">
              {groups.some((g) => g.rows.length > 0) ? (
                <FieldsTable groups={groups} typeNames={typeNames} caption={`${name} fields`} />
              ) : (
                <p className="font-mono text-sm text-slate-700">
                  <TypeText text={typeOf(schema, components)} typeNames={typeNames} />
                </p>
              )}
            </div>
          </section>
        );
      })}
    </div>
  );
}
