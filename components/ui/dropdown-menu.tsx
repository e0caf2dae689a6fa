"use client";

import * as Menu from "@radix-ui/react-dropdown-menu";
import type { ComponentProps } from "react";

/**
 * Radix DropdownMenu (menu semantics, arrow keys move, Enter or a click chooses, Escape closes and
 * focus returns to the trigger), styled for the dashboard. Arrowing through items changes nothing:
 * only choosing one does.
 */
export const DropdownMenu = Menu.Root;
export const DropdownMenuTrigger = Menu.Trigger;
export const DropdownMenuGroup = Menu.Group;
export const DropdownMenuRadioGroup = Menu.RadioGroup;

const itemClass =
  "relative flex cursor-pointer select-none items-center gap-2 rounded px-2 py-1.5 text-sm text-slate-800 outline-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900 data-[disabled]:pointer-events-none data-[disabled]:opacity-50";

export function DropdownMenuContent({
  className = "",
  sideOffset = 6,
  ...props
}: ComponentProps<typeof Menu.Content>) {
  return (
    <Menu.Portal>
      <Menu.Content
        sideOffset={sideOffset}
        className={`z-50 min-w-[12rem] overflow-hidden rounded-md border border-slate-200 bg-white p-1 shadow-lg ${className}`}
        {...props}
      />
    </Menu.Portal>
  );
}

export function DropdownMenuItem({ className = "", ...props }: ComponentProps<typeof Menu.Item>) {
  return <Menu.Item className={`${itemClass} ${className}`} {...props} />;
}

/** An item of a radio group: a check mark beside the one that is current. */
export function DropdownMenuRadioItem({
  className = "",
  children,
  ...props
}: ComponentProps<typeof Menu.RadioItem>) {
  return (
    <Menu.RadioItem className={`${itemClass} pl-7 ${className}`} {...props}>
      <span className="absolute left-2 flex h-4 w-4 items-center justify-center">
        <Menu.ItemIndicator>
          <svg aria-hidden viewBox="0 0 20 20" className="h-4 w-4 fill-indigo-600">
            <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4l3.3 3.29 7.3-7.3a1 1 0 0 1 1.4 0Z" />
          </svg>
        </Menu.ItemIndicator>
      </span>
      {children}
    </Menu.RadioItem>
  );
}

export function DropdownMenuLabel({ className = "", ...props }: ComponentProps<typeof Menu.Label>) {
  return <Menu.Label className={`px-2 py-1.5 text-xs font-medium text-slate-500 ${className}`} {...props} />;
}

export function DropdownMenuSeparator({ className = "", ...props }: ComponentProps<typeof Menu.Separator>) {
  return <Menu.Separator className={`-mx-1 my-1 h-px bg-slate-200 ${className}`} {...props} />;
}
