import { describe, expect, it } from "vitest";
import { queryOperation } from "@/lib/db/query-timing";

// The `operation` label of switchboard_db_query_duration_seconds: a statement's verb from a closed
// set, never any of its text (a label value is a series Prometheus keeps forever).
describe("queryOperation", () => {
  it("names the four verbs drizzle generates, whatever their case or leading space", () => {
    expect(queryOperation('select "id" from "calls"')).toBe("select");
    expect(queryOperation('\n  INSERT INTO "calls" values ($1)')).toBe("insert");
    expect(queryOperation('update "calls" set "status" = $1')).toBe("update");
    expect(queryOperation('delete from "rate_buckets"')).toBe("delete");
    expect(queryOperation("(select 1) union (select 2)")).toBe("select");
  });

  it("names a with statement by its first write, or select when it only reads", () => {
    expect(
      queryOperation("with inserted_call as (insert into calls values (1)) select id from inserted_call"),
    ).toBe("insert");
    expect(
      queryOperation("with updated as (update calls set status = 'x' returning id) select * from updated"),
    ).toBe("update");
    expect(queryOperation('with "x" as (select "updated_at" from "calls") select * from "x"')).toBe("select");
  });

  it("puts everything else under other", () => {
    expect(queryOperation("set transaction isolation level serializable")).toBe("other");
    expect(queryOperation("")).toBe("other");
    expect(queryOperation("'; drop table calls; --")).toBe("other");
  });
});
