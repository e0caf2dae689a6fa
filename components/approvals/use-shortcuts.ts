import { useEffect, useRef } from "react";

/** Whether a key press belongs to a text field (or a control that uses keys itself), not to us. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/**
 * Single-key shortcuts on the whole page (`{ j: next, k: previous }`). They never fire while the
 * user types in a field, with a modifier held (Ctrl+R still reloads), or on a repeated key press
 * (holding "a" must not approve twice). Handlers may change every render without re-subscribing.
 */
export function useShortcuts(handlers: Record<string, () => void>, isEnabled = true): void {
  const current = useRef(handlers);
  useEffect(() => {
    current.current = handlers;
  });

  useEffect(() => {
    if (!isEnabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) return;
      const handler = current.current[event.key];
      if (!handler) return;
      event.preventDefault();
      handler();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [isEnabled]);
}
