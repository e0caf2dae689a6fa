import { describe, expect, it } from "vitest";
import type { Role } from "@/db/schema";
import { assertRoleCan, type Permission, roleCan } from "@/lib/auth/permissions";
import { AppError } from "@/lib/errors";

const table: Array<[Role, Permission, boolean]> = [
  ["viewer", "read", true],
  ["viewer", "decide", false],
  ["viewer", "manage", false],
  ["approver", "read", true],
  ["approver", "decide", true],
  ["approver", "manage", false],
  ["admin", "read", true],
  ["admin", "decide", true],
  ["admin", "manage", true],
];

describe("roles", () => {
  it.each(table)("%s may %s: %s", (role, permission, allowed) => {
    expect(roleCan(role, permission)).toBe(allowed);
    if (allowed) expect(() => assertRoleCan(role, permission)).not.toThrow();
    else expect(() => assertRoleCan(role, permission)).toThrow(AppError);
  });

  it("a caller without a role (a gateway-only key) may not even read", () => {
    expect(() => assertRoleCan(null, "read")).toThrow(/not a member/);
  });

  it("explains which role a refused change needs", () => {
    expect(() => assertRoleCan("viewer", "manage")).toThrow(/admin role/);
    expect(() => assertRoleCan("viewer", "decide")).toThrow(/approver or admin/);
  });
});
