import type { CallDto } from "@/lib/calls/types";
import { ClampedText } from "../clamped-text";

/**
 * An approver changed the call's arguments before approving it: each changed field, what the
 * caller asked for and what ran. Values as stored (secrets read [redacted]).
 */
export function ArgumentEditTable({
  edit,
  ran,
}: {
  edit: NonNullable<CallDto["argumentEdit"]>;
  ran: CallDto["arguments"];
}) {
  return (
    <div className="relative overflow-x-auto rounded-lg border border-amber-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-100 text-sm" data-testid="argument-edit-table">
        <caption className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-left text-xs text-amber-900">
          An approver edited{" "}
          {edit.editedFields.length === 1 ? "this field" : `${edit.editedFields.length} fields`} before
          approving; the call ran with the approved values, and the caller was told.
        </caption>
        <thead className="bg-slate-50 text-left text-xs font-medium text-slate-600">
          <tr>
            <th scope="col" className="px-4 py-2">
              Field
            </th>
            <th scope="col" className="px-4 py-2">
              Requested
            </th>
            <th scope="col" className="px-4 py-2">
              Approved
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {edit.editedFields.map((field) => (
            <tr key={field} data-testid="argument-edit-row">
              <th scope="row" className="whitespace-nowrap px-4 py-2 text-left align-top font-normal">
                <code className="font-mono text-xs font-medium text-slate-800">{field}</code>
              </th>
              <td className="px-4 py-2 align-top text-slate-500 line-through decoration-red-300">
                <Shown
                  value={edit.requestedArguments[field]}
                  isPresent={Object.hasOwn(edit.requestedArguments, field)}
                />
              </td>
              <td className="px-4 py-2 align-top font-medium text-slate-900">
                <Shown value={ran[field]} isPresent={Object.hasOwn(ran, field)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Shown({ value, isPresent }: { value: unknown; isPresent: boolean }) {
  if (!isPresent) return <span className="italic text-slate-400 no-underline">(not set)</span>;
  const text = typeof value === "string" && value !== "" ? value : JSON.stringify(value);
  return <ClampedText text={text} />;
}
