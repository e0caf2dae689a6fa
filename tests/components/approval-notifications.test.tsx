import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NotifyMeButton, useNotifyNewApprovals } from "@/components/approvals/approval-notifications";
import type { ApprovalDto } from "@/lib/approvals/types";

/*
 * Opt-in browser notifications: nothing asks the browser until "Notify me" is clicked; once on,
 * an approval that arrives shows one notification, while those already waiting do not.
 */

vi.mock("next/navigation", () => ({ useRouter: () => ({ push: vi.fn() }) }));

class FakeNotification {
  static permission: NotificationPermission = "default";
  static answer: NotificationPermission = "granted";
  static shown: Array<{ title: string; options?: NotificationOptions }> = [];
  static requestPermission = vi.fn(async () => {
    FakeNotification.permission = FakeNotification.answer;
    return FakeNotification.answer;
  });
  onclick: (() => void) | null = null;
  constructor(title: string, options?: NotificationOptions) {
    FakeNotification.shown.push({ title, options });
  }
  close() {}
}

const approval = (id: string, tool: string) =>
  ({
    id,
    call: { id, tool, requester: { kind: "principal", id: "p", name: "build-bot" } },
  }) as unknown as ApprovalDto;

function Probe({ approvals }: { approvals: ApprovalDto[] }) {
  useNotifyNewApprovals(approvals);
  return <NotifyMeButton />;
}

beforeEach(() => {
  FakeNotification.permission = "default";
  FakeNotification.answer = "granted";
  FakeNotification.shown = [];
  FakeNotification.requestPermission.mockClear();
  vi.stubGlobal("Notification", FakeNotification);
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("approval notifications", () => {
  it("asks nothing and shows nothing until Notify me is clicked", () => {
    const view = render(<Probe approvals={[approval("a", "files__read")]} />);
    view.rerender(<Probe approvals={[approval("a", "files__read"), approval("b", "files__delete")]} />);
    expect(FakeNotification.requestPermission).not.toHaveBeenCalled();
    expect(FakeNotification.shown).toEqual([]);
    expect(screen.getByRole("button", { name: "Notify me" })).toBeTruthy();
  });

  it("once allowed, notifies of each new approval, not of those already waiting", async () => {
    const view = render(<Probe approvals={[approval("a", "files__read")]} />);
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Notify me" }));
    });
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId("notify-state").textContent).toContain("Notifying this browser");
    expect(localStorage.getItem("switchboard.notify-approvals")).toBe("on");
    view.rerender(<Probe approvals={[approval("a", "files__read"), approval("b", "files__delete")]} />);
    expect(FakeNotification.shown.map((n) => n.title)).toEqual(["Approval needed: files__delete"]);
    expect(FakeNotification.shown[0]?.options?.tag).toBe("approval-b");

    // Stop: the next one is not shown.
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Stop" }));
    });
    view.rerender(<Probe approvals={[approval("c", "files__write")]} />);
    expect(FakeNotification.shown).toHaveLength(1);
  });

  it("says so when the browser blocks notifications", async () => {
    FakeNotification.answer = "denied";
    render(<Probe approvals={[]} />);
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Notify me" }));
    });
    expect(screen.getByTestId("notify-state").textContent).toMatch(/blocked/);
    expect(localStorage.getItem("switchboard.notify-approvals")).toBeNull();
  });
});
