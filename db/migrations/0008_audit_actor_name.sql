ALTER TABLE "audit_events" ADD COLUMN "actor_name" text;--> statement-breakpoint
-- A key made by a key used to have no creator (created_by null), as if it were the machine's
-- bootstrap key. A key now acts with at most its creator person's rights (lib/auth/key-standing):
-- give such keys the person behind the key that made them, found through the audit trail.
WITH RECURSIVE "chain"("id", "ancestor", "person", "depth") AS (
  SELECT "k"."id", "a"."actor_id", "p"."created_by", 1
  FROM "api_keys" "k"
  JOIN "audit_events" "a" ON "a"."action" = 'api_key.created' AND "a"."subject" = "k"."id" AND "a"."actor_kind" = 'api_key'
  JOIN "api_keys" "p" ON "p"."id" = "a"."actor_id"
  WHERE "k"."created_by" IS NULL
  UNION ALL
  SELECT "c"."id", "a"."actor_id", "p"."created_by", "c"."depth" + 1
  FROM "chain" "c"
  JOIN "audit_events" "a" ON "a"."action" = 'api_key.created' AND "a"."subject" = "c"."ancestor" AND "a"."actor_kind" = 'api_key'
  JOIN "api_keys" "p" ON "p"."id" = "a"."actor_id"
  WHERE "c"."person" IS NULL AND "c"."depth" < 32
)
UPDATE "api_keys" SET "created_by" = "chain"."person"
FROM "chain"
WHERE "api_keys"."id" = "chain"."id" AND "chain"."person" IS NOT NULL;
