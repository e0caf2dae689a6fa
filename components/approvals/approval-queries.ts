import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { ApprovalDto } from "@/lib/approvals/types";
import { fetchJson } from "@/lib/client/fetch-json";

export type ApprovalsPage = { approvals: ApprovalDto[]; nextCursor: string | null };

/** The queue is read whole (up to the API's page maximum); the history pages on. */
export const PENDING_LIMIT = 200;
export const DECIDED_PAGE_SIZE = 20;

export const approvalKeys = {
  all: ["approvals"] as const,
  pending: () => [...approvalKeys.all, "pending"] as const,
  decided: () => [...approvalKeys.all, "decided"] as const,
};

export const pendingApprovalsPath = `/api/v1/approvals?status=pending&limit=${PENDING_LIMIT}`;

export const pendingApprovalsQuery = () =>
  queryOptions({
    queryKey: approvalKeys.pending(),
    queryFn: () => fetchJson<ApprovalsPage>(pendingApprovalsPath),
  });

export const decidedApprovalsQuery = () =>
  infiniteQueryOptions({
    queryKey: approvalKeys.decided(),
    queryFn: ({ pageParam }) => {
      const cursor = pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : "";
      return fetchJson<ApprovalsPage>(`/api/v1/approvals?status=decided&limit=${DECIDED_PAGE_SIZE}${cursor}`);
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last: ApprovalsPage) => last.nextCursor,
  });
