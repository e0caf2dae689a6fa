"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { updateToolsAction } from "@/app/(dashboard)/tools/actions";
import { serverKeys } from "@/components/servers/server-queries";
import { replaceSavedTools, toolKeys } from "./tool-queries";
import type { ToolPatch } from "./use-update-tool";

export type ToolChange = ToolPatch & { id: string };

/** Many tools at once, all or nothing (the server action behind PATCH /api/v1/tools). */
export function useUpdateTools() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changes: ToolChange[]) => {
      const result = await updateToolsAction({ changes });
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
    onSuccess: (saved) => {
      replaceSavedTools(queryClient, saved);
      void queryClient.invalidateQueries({ queryKey: toolKeys.all });
      for (const server of new Set(saved.map((tool) => tool.serverName)))
        void queryClient.invalidateQueries({ queryKey: serverKeys.detail(server) });
    },
  });
}
