"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { updateToolAction } from "@/app/(dashboard)/tools/actions";
import { serverKeys } from "@/components/servers/server-queries";
import type { ApprovalRule } from "@/lib/policy/approval-gate";
import type { EffectClass } from "@/lib/policy/types";
import { type GovernedToolDto, replaceSavedTools, toolKeys } from "./tool-queries";

export type ToolPatch = {
  effect?: EffectClass | null;
  enabled?: boolean;
  approvalRule?: ApprovalRule;
  quarantined?: boolean;
  quarantineReason?: string;
};

/** Writes go through the server action; the saved tool replaces its row at once, then lists refetch. */
export function useUpdateTool(tool: GovernedToolDto) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (patch: ToolPatch) => {
      const result = await updateToolAction(tool.id, patch);
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
    onSuccess: (saved) => {
      replaceSavedTools(queryClient, [saved]);
      void queryClient.invalidateQueries({ queryKey: toolKeys.all });
      // The server detail page shows the same tools with their effect badges.
      void queryClient.invalidateQueries({ queryKey: serverKeys.detail(saved.serverName) });
    },
  });
}
