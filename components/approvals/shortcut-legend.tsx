const move = [
  { keys: ["j"], label: "next" },
  { keys: ["k"], label: "previous" },
];
const decide = [
  { keys: ["a"], label: "approve" },
  { keys: ["d"], label: "deny" },
  { keys: ["r"], label: "write a reason" },
  { keys: ["Esc"], label: "leave the reason" },
];

/**
 * The keyboard shortcuts of the queue; deciding ones only for those who may decide. Not shown on
 * a phone's width (below `md`), where there is no keyboard to use them with.
 */
export function ShortcutLegend({ canDecide }: { canDecide: boolean }) {
  const shortcuts = canDecide ? [...move, ...decide] : move;
  return (
    <section
      aria-label="Keyboard shortcuts"
      className="hidden text-xs text-slate-500 md:block"
      data-testid="shortcut-legend"
    >
      <ul className="flex flex-wrap gap-x-3 gap-y-1">
        {shortcuts.map((shortcut) => (
          <li key={shortcut.label} className="flex items-center gap-1">
            {shortcut.keys.map((key) => (
              <kbd
                key={key}
                className="rounded border border-slate-300 bg-white px-1.5 py-px font-mono text-[11px] text-slate-700 shadow-sm"
              >
                {key}
              </kbd>
            ))}
            {shortcut.label}
          </li>
        ))}
      </ul>
    </section>
  );
}
