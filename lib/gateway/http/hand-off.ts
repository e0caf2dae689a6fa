import { createHmac, timingSafeEqual } from "node:crypto";
import { type IncomingHttpHeaders, type IncomingMessage, request, type ServerResponse } from "node:http";
import { request as requestTls } from "node:https";
import { z } from "zod";
import { readEnv } from "@/lib/env";
import { MAX_BODY_BYTES } from "@/lib/gateway/handler";
import { forgetSessionOwner, type SessionOwner, sessionOwner } from "@/lib/gateway/sessions/session-owners";
import { gatewaySessions } from "@/lib/gateway/sessions/sessions";
import { tooLarge } from "@/lib/http/read-json";
import { CONNECTION_HEADER } from "@/lib/http/request-client";
import { log } from "@/lib/observability/log";
import { getDatabase } from "@/lib/runtime/process-db";
import { replicaId } from "@/lib/runtime/replica";
import { isShuttingDown } from "@/lib/runtime/shutdown-state";
import { purposeKey } from "@/lib/secrets/secrets";
import { type BufferedRequest, readNodeBody, replaceRequestHeader } from "./node-request";

/**
 * Gateway sessions across replicas. A session lives in the memory of the replica that opened it:
 * its GET stream, the requests a downstream server sends its client mid-call (sampling,
 * elicitation, roots) and the client's answers to them, its progress, subscriptions and
 * resumable streams. Behind a load balancer with no affinity, a session's next request lands
 * anywhere; the replica it lands on looks the session's owner up (session-owners) and hands the
 * request over to it — the HTTP request as the client sent it, its response streamed back — so
 * the session behaves as if every request reached its owner.
 *
 * The hand-off carries a header signed with a key derived from the secret key every replica
 * shares: it names the original client's connection (the owner judges the client, not the replica
 * that forwarded it — a loopback hop must not make a remote client "this machine") and marks the
 * request as handed off once, so it is never handed on again. A request with a hand-off header
 * that does not verify is refused.
 *
 * When the owner is gone — stopped (its rows went with it), or unreachable (a crash: the
 * connection is refused) — the request is answered here as for any unknown session: a POST
 * statelessly, a GET or DELETE with 404, so the client starts a new session (MCP's rule for an
 * unknown session).
 */

export const HAND_OFF_HEADER = "x-switchboard-hand-off";
/** How long connecting to the holder may take before it counts as unreachable. */
const CONNECT_LIMIT_MS = 3_000;
/** A hand-off is used at once; this bounds a header seen on the wire being sent again. */
const HAND_OFF_VALID_MS = 30_000;

const claimsSchema = z.object({
  /** the original request's connection (server.mjs's CONNECTION_HEADER value) */
  connection: z.string(),
  session: z.string(),
  method: z.string(),
  path: z.string(),
  /** from (replica id), for the owner's log */
  from: z.string(),
  expires: z.number(),
});
export type HandOffClaims = z.infer<typeof claimsSchema>;
type Claims = HandOffClaims;

const signingKey = () => purposeKey("switchboard gateway session hand-off v1");

/** The hand-off header's value for a request (exported for the tests of its checks). */
export function signHandOff(claims: Claims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return `${payload}.${createHmac("sha256", signingKey()).update(payload).digest("base64url")}`;
}

/** The claims of a hand-off header made by a replica for this very request; undefined otherwise. */
function verify(value: string, req: IncomingMessage): Claims | undefined {
  const [payload, signature, extra] = value.split(".");
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = createHmac("sha256", signingKey()).update(payload).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let claims: Claims;
  try {
    claims = claimsSchema.parse(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
  } catch {
    return undefined;
  }
  const now = Date.now();
  const fits =
    claims.expires > now &&
    claims.expires <= now + HAND_OFF_VALID_MS &&
    claims.session === req.headers["mcp-session-id"] &&
    claims.method === req.method &&
    claims.path === req.url;
  return fits ? claims : undefined;
}

/**
 * A request another replica handed over: its connection becomes the original client's. "refused"
 * for a hand-off header that does not verify (forged, altered, replayed late, another request's).
 */
export function acceptHandOff(req: IncomingMessage): "none" | "accepted" | "refused" {
  const value = req.headers[HAND_OFF_HEADER];
  if (value === undefined) return "none";
  const claims = typeof value === "string" ? verify(value, req) : undefined;
  if (!claims) return "refused";
  replaceRequestHeader(req, CONNECTION_HEADER, claims.connection);
  return "accepted";
}

/**
 * Hands the request to the replica holding its session, when that is another live replica; true
 * once answered (by the owner, or here when the body is too large). False when the request is
 * this replica's to answer: no session, a session held here or by no live replica, or an owner
 * that could not be reached (the request never left, so answering it here does nothing twice).
 */
export async function handOffToOwner(req: BufferedRequest, res: ServerResponse): Promise<boolean> {
  const sessionId = req.headers["mcp-session-id"];
  if (typeof sessionId !== "string" || !readEnv().mcpEnabled || isShuttingDown()) return false;
  if (gatewaySessions.get(sessionId)) return false;
  let db: Awaited<ReturnType<typeof getDatabase>>["db"];
  let owner: SessionOwner | undefined;
  try {
    ({ db } = await getDatabase());
    owner = await sessionOwner(db, sessionId);
  } catch {
    return false; // no database: the full handler says why
  }
  const self = replicaId();
  if (!owner || owner.replicaId === self) return false;

  let body: Buffer | undefined;
  if (req.method === "POST") {
    body = await readNodeBody(req, MAX_BODY_BYTES);
    if (body === undefined) {
      const { message } = tooLarge(MAX_BODY_BYTES);
      res.writeHead(413, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message } }));
      return true;
    }
  }
  const claims: Claims = {
    connection: String(req.headers[CONNECTION_HEADER] ?? ""),
    session: sessionId,
    method: req.method ?? "GET",
    path: req.url ?? "/",
    from: self,
    expires: Date.now() + HAND_OFF_VALID_MS,
  };
  const outcome = await forward(req, res, owner, body, signHandOff(claims));
  if (outcome === "answered") return true;
  // Refused at connect: the owner is gone (crashed before its heartbeat went stale), and so is the session.
  log.warn(`gateway session ${sessionId}: its replica ${owner.replicaId} is unreachable; answered here`);
  await forgetSessionOwner(db, sessionId, owner.replicaId).catch(() => {});
  return false;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) are the connection's, never forwarded. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "te",
  "trailer",
]);

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  }
  return kept;
}

/**
 * The request sent to the owner as it came (Host and Origin included: the owner checks them as
 * this replica did), on a connection of its own, and the owner's response streamed back. A new
 * connection each time makes "never sent" certain: only a refused connect is "unreachable".
 */
function forward(
  req: IncomingMessage,
  res: ServerResponse,
  owner: SessionOwner,
  body: Buffer | undefined,
  handOff: string,
): Promise<"answered" | "unreachable"> {
  const target = new URL(req.url ?? "/", owner.url);
  const headers = forwardable(req.headers);
  headers[HAND_OFF_HEADER] = handOff;
  // One request id on both replicas' log lines (server.mjs made one up when the client sent none).
  const requestId = res.getHeader("x-request-id");
  if (typeof requestId === "string") headers["x-request-id"] = requestId;
  if (body) headers["content-length"] = String(body.byteLength);
  const send = target.protocol === "https:" ? requestTls : request;
  return new Promise((resolve) => {
    let connected = false;
    const upstream = send(target, { method: req.method, headers, agent: false });
    // A holder that neither accepts nor refuses (a partition, a host gone without a word) would
    // keep the request for the system's connect timeout, minutes: past this it is unreachable.
    const connectLimit = setTimeout(
      () => upstream.destroy(new Error("no connection within the limit")),
      CONNECT_LIMIT_MS,
    );
    upstream.on("socket", (socket) =>
      socket.once("connect", () => {
        connected = true;
        clearTimeout(connectLimit);
      }),
    );
    upstream.once("close", () => clearTimeout(connectLimit));
    upstream.on("response", (answer) => {
      res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
      answer.pipe(res);
      answer.once("error", () => res.destroy());
      resolve("answered");
    });
    upstream.on("error", (error) => {
      if (!connected) return resolve("unreachable");
      // Sent, and the owner went away before or while answering: whether it ran is not known here.
      if (!res.headersSent) {
        res.writeHead(502, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: null,
            error: {
              code: -32000,
              message: `The Switchboard replica holding this session went away while answering (${error.message}). Check the call's outcome before repeating it.`,
            },
          }),
        );
      } else {
        res.destroy();
      }
      resolve("answered");
    });
    // The client went away: so does the request to the owner (a GET stream, a call in flight).
    res.once("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    upstream.end(body);
  });
}
