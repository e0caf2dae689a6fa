import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { acceptHandOff, HAND_OFF_HEADER, type HandOffClaims, signHandOff } from "@/lib/gateway/http/hand-off";
import { CONNECTION_HEADER } from "@/lib/http/request-client";

/*
 * The header one replica hands a gateway session's request to another with (lib/gateway/http/hand-off):
 * it names the original client, so a forged or reused one would let a remote client pose as another
 * client — or as this machine. Accepted only when signed with the shared key, for this very
 * request, and fresh.
 */

vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
afterEach(() => vi.useRealTimers());

const ORIGINAL_CLIENT = encodeURIComponent(
  JSON.stringify({ peer: "203.0.113.7", forwardedHeaders: [], xForwardedFor: null, forwarded: null }),
);
const FORWARDER = encodeURIComponent(
  JSON.stringify({ peer: "127.0.0.1", forwardedHeaders: [], xForwardedFor: null, forwarded: null }),
);

function claims(overrides: Partial<HandOffClaims> = {}): HandOffClaims {
  return {
    connection: ORIGINAL_CLIENT,
    session: "session-1",
    method: "POST",
    path: "/mcp",
    from: "replica-b",
    expires: Date.now() + 10_000,
    ...overrides,
  };
}

/** A request as the owner's server.mjs passes it on: its connection is the forwarding replica's. */
function arriving(
  handOff: string | undefined,
  request: { method?: string; url?: string; session?: string } = {},
) {
  const headers: Record<string, string> = {
    "mcp-session-id": request.session ?? "session-1",
    [CONNECTION_HEADER]: FORWARDER,
    ...(handOff === undefined ? {} : { [HAND_OFF_HEADER]: handOff }),
  };
  return {
    method: request.method ?? "POST",
    url: request.url ?? "/mcp",
    headers,
    rawHeaders: Object.entries(headers).flat(),
  } as unknown as IncomingMessage;
}

describe("a replica's hand-off of a session's request", () => {
  it("is accepted when signed for this request, and the request is then the original client's", () => {
    const req = arriving(signHandOff(claims()));
    expect(acceptHandOff(req)).toBe("accepted");
    expect(req.headers[CONNECTION_HEADER]).toBe(ORIGINAL_CLIENT);
    // The web Request is built from rawHeaders: it must say the same, once.
    const raw = req.rawHeaders.filter((_, i) => i % 2 === 0 && req.rawHeaders[i] === CONNECTION_HEADER);
    expect(raw).toHaveLength(1);
    expect(req.rawHeaders[req.rawHeaders.indexOf(CONNECTION_HEADER) + 1]).toBe(ORIGINAL_CLIENT);
  });

  it("leaves a request without one alone", () => {
    const req = arriving(undefined);
    expect(acceptHandOff(req)).toBe("none");
    expect(req.headers[CONNECTION_HEADER]).toBe(FORWARDER);
  });

  it("is refused when forged, altered, for another request, or stale — and the connection is kept", () => {
    const valid = signHandOff(claims());
    const [payload, signature] = valid.split(".") as [string, string];
    const posingAsLoopback = Buffer.from(
      JSON.stringify({ ...claims(), connection: FORWARDER.replace("127.0.0.1", "::1") }),
    ).toString("base64url");
    const refused: Array<[string, IncomingMessage]> = [
      ["unsigned", arriving(payload)],
      ["another payload under the signature", arriving(`${posingAsLoopback}.${signature}`)],
      ["garbage", arriving("not.a.hand-off")],
      ["another session", arriving(valid, { session: "session-2" })],
      ["another method", arriving(valid, { method: "DELETE" })],
      ["another path", arriving(valid, { url: "/mcp/servers/files" })],
      ["expired", arriving(signHandOff(claims({ expires: Date.now() - 1 })))],
      ["valid too long", arriving(signHandOff(claims({ expires: Date.now() + 3_600_000 })))],
    ];
    for (const [what, req] of refused) {
      expect(acceptHandOff(req), what).toBe("refused");
      expect(req.headers[CONNECTION_HEADER], what).toBe(FORWARDER);
    }
  });

  it("is refused when signed with another secret key (another installation)", () => {
    const signedElsewhere = signHandOff(claims());
    vi.stubEnv("SWITCHBOARD_SECRET_KEY", randomBytes(32).toString("base64"));
    vi.resetModules();
    return import("@/lib/gateway/http/hand-off").then((fresh) => {
      expect(fresh.acceptHandOff(arriving(signedElsewhere))).toBe("refused");
    });
  });
});
