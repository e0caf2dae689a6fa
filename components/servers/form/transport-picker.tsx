import type { SectionProps, Transport } from "./form-state";

const transportOptions: { value: Transport; label: string; hint: string }[] = [
  { value: "stdio", label: "stdio", hint: "A local command Switchboard starts" },
  { value: "streamable-http", label: "Streamable HTTP", hint: "A remote /mcp endpoint" },
  { value: "sse", label: "SSE", hint: "The older HTTP+SSE transport" },
];

/** Radio cards: the transport decides which of the connection fields follow. */
export function TransportPicker({ state, set }: Pick<SectionProps, "state" | "set">) {
  return (
    <fieldset className="sm:col-span-2">
      <legend className="text-sm font-medium text-slate-800">Transport</legend>
      <div className="mt-1 grid gap-2 sm:grid-cols-3">
        {transportOptions.map((option) => (
          <label
            key={option.value}
            className={`cursor-pointer rounded-md border px-3 py-2 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500 ${
              state.transport === option.value
                ? "border-indigo-500 bg-indigo-50 ring-1 ring-indigo-500"
                : "border-slate-300 bg-white"
            }`}
          >
            <input
              type="radio"
              name="transport"
              value={option.value}
              className="sr-only"
              checked={state.transport === option.value}
              onChange={() => set("transport", option.value)}
            />
            <span className="font-medium text-slate-900">{option.label}</span>
            <span className="block text-xs text-slate-600">{option.hint}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
