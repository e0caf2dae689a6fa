"use client";

import { useMutation } from "@tanstack/react-query";
import type { ActionResult } from "@/lib/actions/action-result";
import type { CallDto } from "../call-queries";

/** An action's refusal, with the problems it found per field (`arguments.<name>`). */
export class ReadRefused extends Error {
  constructor(
    message: string,
    readonly fieldErrors: Record<string, string[]>,
  ) {
    super(message);
  }
}

/** A read or get through its server action: the recorded call, or a ReadRefused to show. */
export function useReadAction<Input>(action: (input: Input) => Promise<ActionResult<CallDto>>) {
  return useMutation({
    mutationFn: async (input: Input) => {
      const result = await action(input);
      if (!result.ok) throw new ReadRefused(result.error.message, result.error.fieldErrors ?? {});
      return result.data;
    },
  });
}
