import { describe, expect, it } from "vitest";
import { checkRequest } from "@/lib/http/request-guard";

const request = (url: string, headers: Record<string, string>, method = "GET") => ({
  url,
  method,
  headers: new Headers(headers),
});

describe("request guard (DNS rebinding, CSRF, credentials in URLs)", () => {
  it.each([
    ["loopback by IP", { host: "127.0.0.1:3000" }],
    ["localhost on another port", { host: "localhost:4567" }],
    ["IPv6 loopback", { host: "[::1]:3000" }],
    ["same-origin POST", { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" }],
    ["the page's own loopback name", { host: "localhost:3000", origin: "http://localhost:3000" }],
    ["a script without Origin", { host: "127.0.0.1:3000", authorization: "Bearer sb_x" }],
    ["a same-origin fetch", { host: "127.0.0.1:3000", "sec-fetch-site": "same-origin" }],
  ])("lets through %s", (_, headers) => {
    expect(checkRequest(request("http://127.0.0.1:3000/api/v1/servers", headers, "POST"))).toBeUndefined();
  });

  it.each([
    ["a rebinding host", { host: "attacker.example:3000" }, /host "attacker.example:3000"/],
    ["no host at all", {}, /host ""/],
    ["a foreign origin", { host: "127.0.0.1:3000", origin: "https://evil.example" }, /Cross-origin .*evil/],
    ["an opaque origin", { host: "127.0.0.1:3000", origin: "null" }, /Cross-origin/],
    // Same site to the browser (the session cookie goes along), another site to us.
    [
      "another port of the same host",
      { host: "127.0.0.1:3000", origin: "http://127.0.0.1:9999" },
      /Cross-origin requests from http:\/\/127\.0\.0\.1:9999 are refused: only Switchboard's own pages \(http:\/\/127\.0\.0\.1:3000/,
    ],
    ["another loopback name", { host: "127.0.0.1:3000", origin: "http://localhost:3000" }, /Cross-origin/],
    ["another scheme", { host: "127.0.0.1:3000", origin: "https://127.0.0.1:3000" }, /Cross-origin/],
    [
      "a cross-site write without Origin",
      { host: "127.0.0.1:3000", "sec-fetch-site": "same-site" },
      /same-site/,
    ],
  ])("refuses %s with 403", (_, headers, message) => {
    const error = checkRequest(request("http://127.0.0.1:3000/", headers, "POST"));
    expect(error?.status).toBe(403);
    expect(error?.message).toMatch(message);
  });

  it.each(["api_key", "token", "access_token", "API_KEY"])(
    "refuses ?%s= in the query string with 400",
    (param) => {
      const error = checkRequest(
        request(`http://127.0.0.1:3000/api/v1/servers?${param}=sb_x`, { host: "127.0.0.1:3000" }),
      );
      expect(error?.status).toBe(400);
      expect(error?.message).toMatch(/Authorization/);
    },
  );

  it("leaves ordinary query strings alone", () => {
    const req = request("http://127.0.0.1:3000/sign-in?next=/invite/abc", { host: "127.0.0.1:3000" });
    expect(checkRequest(req)).toBeUndefined();
  });
});
