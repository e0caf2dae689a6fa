"use client";

import { usePathname } from "next/navigation";
import { type MouseEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { flushSync } from "react-dom";

/**
 * The dashboard's frame. From `md` up: the sidebar beside the page, as it always was. Below it (a
 * phone): a top bar with a menu button, and the sidebar as a drawer over the page. The drawer is
 * modal while open — the page behind is inert and does not scroll, focus moves into it, Escape, a
 * tap on the backdrop or a navigation closes it, and focus goes back to the menu button.
 */
export function DashboardShell({
  brand,
  sidebar,
  children,
}: {
  brand: ReactNode;
  sidebar: ReactNode;
  children: ReactNode;
}) {
  const [isOpen, setOpen] = useState(false);
  const drawerId = useId();
  const menuButton = useRef<HTMLButtonElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const pathname = usePathname();

  // Rendered closed first: until then the menu button is inert and cannot take the focus back.
  const closeAndReturnFocus = () => {
    flushSync(() => setOpen(false));
    menuButton.current?.focus();
  };

  // A navigation from inside the drawer (a link, or the workspace switcher's push) closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the pathname is the trigger, not an input
  useEffect(() => setOpen(false), [pathname]);

  useEffect(() => {
    if (!isOpen) return;
    closeButton.current?.focus();
    // The page behind holds still while the drawer is over it.
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    const onKeyDown = (event: KeyboardEvent) => {
      // A menu or dialog inside the drawer takes its own Escape first (Radix marks it handled).
      if (event.key !== "Escape" || event.defaultPrevented) return;
      if (event.target instanceof Element && event.target.closest("dialog[open]")) return;
      flushSync(() => setOpen(false));
      menuButton.current?.focus();
    };
    // Widened past `md` (a rotated tablet), the sidebar is back beside the page: no drawer left open.
    const wide = window.matchMedia("(min-width: 768px)");
    const onWide = () => wide.matches && setOpen(false);
    document.addEventListener("keydown", onKeyDown);
    wide.addEventListener("change", onWide);
    return () => {
      document.body.style.overflow = overflow;
      document.removeEventListener("keydown", onKeyDown);
      wide.removeEventListener("change", onWide);
    };
  }, [isOpen]);

  // Tapping the page a link already shows changes no pathname: close on any link tap too.
  const closeOnLink = (event: MouseEvent) => {
    if (event.target instanceof Element && event.target.closest("a[href]")) setOpen(false);
  };

  return (
    <div className="min-h-screen md:flex">
      <header
        inert={isOpen}
        className="sticky top-0 z-30 flex h-14 items-center gap-2 bg-slate-900 px-2 md:hidden"
      >
        <button
          ref={menuButton}
          type="button"
          aria-label="Menu"
          aria-expanded={isOpen}
          aria-controls={drawerId}
          onClick={() => setOpen(true)}
          className="grid h-11 w-11 place-items-center rounded-md text-slate-200 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-400"
        >
          <MenuIcon />
        </button>
        {brand}
      </header>
      {isOpen ? (
        // A pointer target only: keyboard users close with Escape or the Close button.
        // biome-ignore lint/a11y/noStaticElementInteractions: the backdrop duplicates the Close button
        // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes the drawer from anywhere
        <div
          data-testid="drawer-backdrop"
          onClick={closeAndReturnFocus}
          className="fixed inset-0 z-40 bg-slate-900/50 md:hidden"
        />
      ) : null}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: a link followed by keyboard clicks too */}
      <aside
        id={drawerId}
        aria-label="Sidebar"
        onClick={closeOnLink}
        className={`${
          isOpen ? "fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] overflow-y-auto shadow-xl" : "hidden"
        } flex-col gap-5 bg-slate-900 py-5 md:sticky md:top-0 md:flex md:h-screen md:w-60 md:shrink-0 md:shadow-none`}
      >
        <div className="flex items-center justify-between pr-3 pl-6">
          {brand}
          <button
            ref={closeButton}
            type="button"
            aria-label="Close menu"
            onClick={closeAndReturnFocus}
            className="grid h-11 w-11 place-items-center rounded-md text-slate-300 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-400 md:hidden"
          >
            <CloseIcon />
          </button>
        </div>
        {sidebar}
      </aside>
      <main inert={isOpen} className="min-w-0 flex-1 px-4 py-6 md:px-8 md:py-8">
        <div className="mx-auto max-w-6xl">{children}</div>
      </main>
    </div>
  );
}

function MenuIcon() {
  return (
    <svg
      aria-hidden
      viewBox="0 0 24 24"
      className="h-6 w-6"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <path strokeLinecap="round" d="M4 6h16M4 12h16M4 18h16" />
    </svg>
  );
}

function CloseIcon() {
  return (
    <svg
      aria-hidden
      viewBox="0 0 24 24"
      className="h-6 w-6"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <path strokeLinecap="round" d="M6 6l12 12M18 6L6 18" />
    </svg>
  );
}
