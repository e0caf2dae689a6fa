import { Button } from "@/components/ui/button";
import type { PrimitiveKind } from "./form-model";
import { PrimitiveInput } from "./primitive-input";

/** A list of strings, numbers, booleans or enum values: one row per item, added and removed by hand. */
export function ArrayInput(props: {
  id: string;
  name: string;
  item: PrimitiveKind;
  value: unknown;
  isInvalid: boolean;
  onChange: (value: unknown) => void;
}) {
  const items = Array.isArray(props.value) ? props.value : [];
  const set = (next: unknown[]) => props.onChange(next.length === 0 ? undefined : next);

  return (
    <div id={props.id} className="space-y-2">
      {items.map((item, index) => (
        // Items have no identity but their position; rows are only ever removed by that position.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <div key={index} className="flex items-center gap-2">
          <div className="min-w-0 flex-1">
            <PrimitiveInput
              id={`${props.id}-${index}`}
              label={`${props.name} item ${index + 1}`}
              type={props.item}
              value={item}
              isRequired
              isInvalid={false}
              onChange={(next) => set(items.map((old, i) => (i === index ? next : old)))}
            />
          </div>
          <Button
            variant="ghost"
            aria-label={`Remove ${props.name} item ${index + 1}`}
            onClick={() => set(items.filter((_, i) => i !== index))}
          >
            ✕
          </Button>
        </div>
      ))}
      <Button variant="secondary" className="px-2 py-1 text-xs" onClick={() => set([...items, undefined])}>
        Add item
      </Button>
    </div>
  );
}
