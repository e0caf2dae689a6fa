import { type NextRequest, NextResponse } from "next/server";
import { toErrorBody } from "@/lib/errors";
import { checkRequest } from "@/lib/http/request-guard";
import { securityHeaders } from "@/lib/http/security-headers";

/** Runs before every page, action and route handler (Next.js 16 "proxy", Node.js runtime). */
export function proxy(request: NextRequest) {
  const refusal = checkRequest(request);
  if (!refusal) return NextResponse.next();
  const response = NextResponse.json({ error: toErrorBody(refusal) }, { status: refusal.status });
  for (const { key, value } of securityHeaders) response.headers.set(key, value);
  return response;
}

export const config = {
  // Static assets need no checks.
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
