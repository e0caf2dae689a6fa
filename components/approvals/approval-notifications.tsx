"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useSyncExternalStore } from "react";
import { Button } from "@/components/ui/button";
import type { ApprovalDto } from "@/lib/approvals/types";

/**
 * Opt-in browser notifications for new approvals. Nothing asks for permission until someone
 * clicks "Notify me" on the Approvals page; the choice is this browser's (localStorage), and
 * every open dashboard tab notifies through the sidebar's pending query — the notification's tag
 * is the call id, so several tabs show one notification per call.
 */

const STORAGE_KEY = "switchboard.notify-approvals";
const listeners = new Set<() => void>();

type NotifyState = "unsupported" | "blocked" | "on" | "off";

function readState(): NotifyState {
  if (typeof window === "undefined" || !("Notification" in window)) return "unsupported";
  if (Notification.permission === "denied") return "blocked";
  return Notification.permission === "granted" && localStorage.getItem(STORAGE_KEY) === "on" ? "on" : "off";
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

const changed = () => {
  for (const listener of listeners) listener();
};

export function useNotifyState(): NotifyState {
  return useSyncExternalStore(subscribe, readState, () => "unsupported");
}

/** Shows a notification for each approval that appears while this page is open (not the ones already there). */
export function useNotifyNewApprovals(approvals: ApprovalDto[] | undefined): void {
  const state = useNotifyState();
  const router = useRouter();
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!approvals) return;
    const previous = seen.current;
    seen.current = new Set(approvals.map((a) => a.call.id));
    if (!previous || state !== "on") return;
    for (const approval of approvals) {
      if (previous.has(approval.call.id)) continue;
      const notification = new Notification(`Approval needed: ${approval.call.tool}`, {
        body: `${approval.call.requester.name} asks to run it.`,
        tag: `approval-${approval.call.id}`,
      });
      notification.onclick = () => {
        window.focus();
        router.push("/approvals");
        notification.close();
      };
    }
  }, [approvals, state, router]);
}

/** The opt-in on the Approvals page: asks the browser only when clicked. */
export function NotifyMeButton() {
  const state = useNotifyState();
  if (state === "unsupported") return null;
  if (state === "blocked")
    return (
      <p className="text-xs text-slate-500" data-testid="notify-state">
        Notifications are blocked for this site in your browser's settings.
      </p>
    );
  if (state === "on")
    return (
      <div className="flex items-center gap-2 text-xs text-slate-600" data-testid="notify-state">
        Notifying this browser of new approvals
        <Button
          variant="ghost"
          onClick={() => {
            localStorage.removeItem(STORAGE_KEY);
            changed();
          }}
        >
          Stop
        </Button>
      </div>
    );
  return (
    <Button
      variant="secondary"
      onClick={async () => {
        const permission = await Notification.requestPermission();
        if (permission === "granted") localStorage.setItem(STORAGE_KEY, "on");
        changed();
      }}
    >
      Notify me
    </Button>
  );
}
