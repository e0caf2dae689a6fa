"use client";

import { createContext, type ReactNode, useContext } from "react";
import type { DecisionRights } from "@/lib/approvals/types";

/**
 * What the signed-in member may do with their own held calls (all the Playground's calls are theirs),
 * worked out once by the page (lib/approvals/decision-rights.ts ownCallRights). A context, so the call
 * tracker gets it without every Playground component passing it along.
 */
const OwnCallRights = createContext<DecisionRights>({ canDecide: false, approveRefusal: null });

export function OwnCallRightsProvider({ rights, children }: { rights: DecisionRights; children: ReactNode }) {
  return <OwnCallRights.Provider value={rights}>{children}</OwnCallRights.Provider>;
}

export const useOwnCallRights = () => useContext(OwnCallRights);
