import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { RecordedEvent } from "@/lib/events/event-types";
import { maskUrl } from "@/lib/webhooks/mask-url";
import { webhookMessageOf } from "@/lib/webhooks/webhook-events";
import { bodyOf, headersOf, type StoredPayload } from "@/lib/webhooks/webhook-payload";

const base = { id: 7, tenantId: "t1", createdAt: "2026-01-01T00:00:00.000Z" };
const call = {
  callId: "c1",
  serverId: "s1",
  serverName: "files",
  tool: "files__delete",
  effect: "destructive" as const,
  requester: { kind: "principal" as const, id: "p1", name: "bot" },
};

describe("webhook messages", () => {
  it("maps approval events and ignores the rest", () => {
    const at = (event: object) => webhookMessageOf({ ...base, ...event } as RecordedEvent)?.type;
    expect(at({ ...call, type: "call.approval_required", reason: "r", expiresAt: "x" })).toBe(
      "approval.requested",
    );
    expect(at({ ...call, type: "call.approved", decidedBy: "ada", reason: null })).toBe("approval.decided");
    expect(at({ ...call, type: "call.denied", decidedBy: "ada", reason: "no" })).toBe("approval.decided");
    // Refused by grants: nobody was asked, so it is not an approval decision.
    expect(at({ ...call, type: "call.denied", decidedBy: null, reason: "no grant" })).toBeUndefined();
    expect(at({ ...call, type: "call.expired" })).toBe("approval.expired");
    expect(at({ ...call, type: "call.started" })).toBeUndefined();
    const server = { serverId: "s1", serverName: "files" };
    expect(at({ ...server, type: "server.state_changed", from: "ready", to: "crash-loop" })).toBe(
      "server.attention",
    );
    expect(at({ ...server, type: "server.state_changed", from: "connecting", to: "ready" })).toBeUndefined();
  });
});

describe("webhook payloads", () => {
  const payload: StoredPayload = {
    id: "7",
    type: "approval.requested",
    createdAt: base.createdAt,
    workspace: { id: "t1", name: "Acme" },
    summary: "bot asks to run <!channel> & more",
    url: "https://sb.example.com/approvals",
    data: { callId: "c1" },
  };

  it("signs the timestamp and the body together", () => {
    const body = bodyOf("generic", payload);
    const now = new Date("2026-01-01T00:00:10.000Z");
    const headers = headersOf({
      format: "generic",
      secret: "whsec_k",
      deliveryId: "d1",
      type: "approval.requested",
      body,
      now,
    });
    const expected = createHmac("sha256", "whsec_k").update(`1767225610.${body}`).digest("hex");
    expect(headers["x-switchboard-timestamp"]).toBe("1767225610");
    expect(headers["x-switchboard-signature"]).toBe(`v1=${expected}`);
    expect(JSON.parse(body)).toEqual({
      id: "7",
      type: "approval.requested",
      createdAt: base.createdAt,
      workspace: { id: "t1", name: "Acme" },
      data: { callId: "c1", summary: payload.summary, url: payload.url },
    });
  });

  it("escapes Slack's mrkdwn so a tool's words cannot ping a channel", () => {
    const message = JSON.parse(bodyOf("slack", payload));
    expect(message.blocks[0].text.text).toContain("&lt;!channel&gt; &amp; more");
    expect(message.text).not.toContain("<!channel>");
    expect(message.blocks[1].elements[0].url).toBe(payload.url);
  });

  it("masks a URL's path but its last four characters", () => {
    expect(maskUrl("https://hooks.slack.com/services/T0/B0/abcdefghijkl")).toBe(
      "https://hooks.slack.com/…ijkl",
    );
    expect(maskUrl("https://x.example.com/")).toBe("https://x.example.com");
    expect(maskUrl("https://x.example.com/short")).toBe("https://x.example.com/…");
  });
});
