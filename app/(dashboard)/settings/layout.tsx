import type { ReactNode } from "react";
import { SettingsTabs } from "@/components/settings/settings-tabs";
import { PageHeader } from "@/components/ui/page-header";
import { getPageContext } from "@/lib/auth/page-context";

export default async function SettingsLayout({ children }: { children: ReactNode }) {
  const { actor } = await getPageContext();
  return (
    <>
      <PageHeader
        title="Settings"
        description="Who can use this workspace, the keys scripts and agents use, and how MCP clients reach the gateway."
      />
      <SettingsTabs showInstance={actor.instanceOwner} />
      {children}
    </>
  );
}
