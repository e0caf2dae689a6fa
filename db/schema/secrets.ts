import { pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { id, tenantId, timestamps } from "./columns";

/** Write-only secrets: AES-256-GCM ciphertext; the value is never read back through any route. */
export const secrets = pgTable(
  "secrets",
  {
    id: id(),
    tenantId: tenantId(),
    name: text("name").notNull(),
    /** base64 of iv(12) | tag(16) | ciphertext */
    ciphertext: text("ciphertext").notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex("secrets_tenant_name_key").on(t.tenantId, t.name)],
);

export type Secret = typeof secrets.$inferSelect;
