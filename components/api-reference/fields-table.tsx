import { Fragment } from "react";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { InlineText } from "./rich-text";
import type { FieldGroup } from "./schema-fields";

/** Fields as rows: name, type (named types link to their definition), required, description. */
export function FieldsTable({
  groups,
  typeNames,
  caption,
}: {
  groups: FieldGroup[];
  /** the document's named types: each is linked where a type mentions it */
  typeNames: ReadonlySet<string>;
  caption: string;
}) {
  return (
    <DataTable caption={caption} columns={["Field", "Type", "Required", "Description"]}>
      {groups.map((group, groupIndex) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: groups of one static schema, never reordered
        <Fragment key={groupIndex}>
          {group.label ? (
            <tr className="bg-slate-50">
              <th
                colSpan={4}
                scope="rowgroup"
                className="px-4 py-2 text-left text-xs font-semibold text-slate-600"
              >
                {groupIndex === 0 ? "One of — " : "or — "}
                <span className="font-mono">{group.label}</span>
              </th>
            </tr>
          ) : null}
          {group.rows.map((row) => (
            <tr key={row.name} className="align-top">
              <td className="px-4 py-2 font-mono text-xs text-slate-900">{row.name}</td>
              <td className="px-4 py-2 font-mono text-xs text-slate-700">
                <TypeText text={row.type} typeNames={typeNames} />
              </td>
              <td className="px-4 py-2">{row.isRequired ? <Badge tone="amber">required</Badge> : null}</td>
              <td className="px-4 py-2 text-slate-600">
                <InlineText text={row.description} />
              </td>
            </tr>
          ))}
        </Fragment>
      ))}
    </DataTable>
  );
}

export function TypeText({ text, typeNames }: { text: string; typeNames: ReadonlySet<string> }) {
  return text.split(/([A-Z][A-Za-z]+)/).map((part, index) =>
    typeNames.has(part) ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: pieces of one static string
      <a key={index} href={`#type-${part}`} className="text-indigo-700 underline underline-offset-2">
        {part}
      </a>
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: pieces of one static string
      <Fragment key={index}>{part}</Fragment>
    ),
  );
}
