"use client";

import { Command as CommandPrimitive } from "cmdk";
import type { ComponentProps } from "react";

/**
 * cmdk's command list, styled: an input that filters (role combobox) over a listbox whose active
 * option follows the arrow keys and is scrolled into view; Enter or a click picks it.
 */
export function Command({ className = "", ...props }: ComponentProps<typeof CommandPrimitive>) {
  return <CommandPrimitive className={`flex flex-col overflow-hidden ${className}`} {...props} />;
}

export function CommandInput({ className = "", ...props }: ComponentProps<typeof CommandPrimitive.Input>) {
  return (
    <div className="flex items-center gap-2 border-b border-slate-200 px-3">
      <svg aria-hidden viewBox="0 0 20 20" className="h-4 w-4 shrink-0 fill-slate-400">
        <path d="M8.5 3a5.5 5.5 0 0 1 4.38 8.83l3.65 3.64a.75.75 0 1 1-1.06 1.06l-3.64-3.65A5.5 5.5 0 1 1 8.5 3Zm0 1.5a4 4 0 1 0 0 8 4 4 0 0 0 0-8Z" />
      </svg>
      <CommandPrimitive.Input
        className={`w-full bg-transparent py-2.5 text-sm text-slate-900 outline-none placeholder:text-slate-500 ${className}`}
        {...props}
      />
    </div>
  );
}

export function CommandList({ className = "", ...props }: ComponentProps<typeof CommandPrimitive.List>) {
  return (
    <CommandPrimitive.List
      className={`max-h-80 scroll-py-1 overflow-y-auto overscroll-contain p-1 ${className}`}
      {...props}
    />
  );
}

export function CommandEmpty({ className = "", ...props }: ComponentProps<typeof CommandPrimitive.Empty>) {
  return (
    <CommandPrimitive.Empty
      className={`px-3 py-6 text-center text-sm text-slate-500 ${className}`}
      {...props}
    />
  );
}

export function CommandItem({ className = "", ...props }: ComponentProps<typeof CommandPrimitive.Item>) {
  return (
    <CommandPrimitive.Item
      className={`cursor-pointer select-none rounded px-2.5 py-2 text-sm outline-none data-[selected=true]:bg-indigo-50 data-[disabled=true]:pointer-events-none data-[disabled=true]:opacity-50 ${className}`}
      {...props}
    />
  );
}
