import type { Metadata } from "next";
import { ApprovalPolicyForm } from "@/components/settings/approval-policy-form";
import { getPageContext } from "@/lib/auth/page-context";
import { getApprovalPolicy } from "@/lib/policy/approval-rules";

export const metadata: Metadata = { title: "Approval rules" };
export const dynamic = "force-dynamic";

export default async function ApprovalRulesPage() {
  const { db, tenant, canManage } = await getPageContext();
  const policy = await getApprovalPolicy(db, { tenantId: tenant.id });
  return <ApprovalPolicyForm policy={policy} canManage={canManage} />;
}
