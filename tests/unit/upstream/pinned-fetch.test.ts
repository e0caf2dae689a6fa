import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPinnedFetch } from "@/lib/upstream/transport/pinned-fetch";

// Real sockets on loopback: a name the test resolves itself, and a server that redirects.
let server: Server;
let port = 0;
const hosts: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hosts.push(req.headers.host ?? "");
    if (req.url === "/elsewhere") return void res.writeHead(302, { location: "http://127.0.0.9:1/x" }).end();
    if (req.url === "/same") return void res.writeHead(307, { location: "/ok" }).end();
    res.writeHead(200, { "content-type": "text/plain" }).end(`ok ${req.headers.authorization ?? ""}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("pinned fetch", () => {
  it("connects to the address its resolver gives, keeping the name in the Host header", async () => {
    const pinned = createPinnedFetch(async () => [{ address: "127.0.0.1", family: 4 }]);
    const response = await pinned.fetch(`http://mcp.test:${port}/`, {
      headers: { authorization: "Bearer t" },
    });
    expect(await response.text()).toBe("ok Bearer t");
    expect(hosts.at(-1)).toBe(`mcp.test:${port}`);
    await pinned.close();
  });

  it("fails the request when its resolver refuses, and sends nothing", async () => {
    const before = hosts.length;
    const pinned = createPinnedFetch(async (host) => {
      throw Object.assign(new Error(`${host} resolved to 127.0.0.1, refused by egress (loopback)`), {
        code: "EGRESS_REFUSED",
      });
    });
    const error = await pinned.fetch(`http://rebind.test:${port}/`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(JSON.stringify(String((error as Error).cause))).toMatch(/refused by egress/);
    expect(hosts.length).toBe(before);
    await pinned.close();
  });

  it("judges an IP literal too (net.connect would skip the lookup)", async () => {
    const asked: string[] = [];
    const pinned = createPinnedFetch(async (host) => {
      asked.push(host);
      throw Object.assign(new Error("refused"), { code: "EGRESS_REFUSED" });
    });
    await expect(pinned.fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow("refused");
    expect(asked).toEqual(["127.0.0.1"]);
    await pinned.close();
  });

  it("refuses a redirect to another origin, and leaves one within the origin unfollowed", async () => {
    const pinned = createPinnedFetch(async () => [{ address: "127.0.0.1", family: 4 }]);
    await expect(pinned.fetch(`http://mcp.test:${port}/elsewhere`)).rejects.toMatchObject({
      code: "REDIRECT_REFUSED",
      message: expect.stringMatching(
        /redirected to http:\/\/127\.0\.0\.9:1: a redirect to another origin is refused/,
      ),
    });
    const same = await pinned.fetch(`http://mcp.test:${port}/same`);
    expect(same.status).toBe(307);
    await pinned.close();
  });
});
