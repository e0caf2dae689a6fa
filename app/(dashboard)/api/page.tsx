import type { Metadata } from "next";
import { ApiReference } from "@/components/api-reference/api-reference";
import { PageHeader } from "@/components/ui/page-header";
import { getOpenApiDocument } from "@/lib/openapi/document";

export const metadata: Metadata = { title: "API" };

export default function ApiPage() {
  return (
    <>
      <PageHeader
        title="API reference"
        description="Every REST route of Switchboard: what it takes, what it answers, who may call it. Generated from the schemas the routes validate requests with."
      />
      <ApiReference document={getOpenApiDocument()} />
    </>
  );
}
