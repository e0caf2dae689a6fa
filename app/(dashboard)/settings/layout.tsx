import type { ReactNode } from "react";
import { SettingsTabs } from "@/components/settings/settings-tabs";
import { PageHeader } from "@/components/ui/page-header";

export default function SettingsLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <PageHeader
        title="Settings"
        description="Who can use this workspace, the keys scripts and agents use, and how MCP clients reach the gateway."
      />
      <SettingsTabs />
      {children}
    </>
  );
}
