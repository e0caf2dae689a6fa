import type { APIRequestContext, Page } from "@playwright/test";

/*
 * Server actions as an attacker calls them: the browser's request is captured once (its action id
 * and headers), then replayed over plain HTTP with arguments of the attacker's choosing, as many
 * times and as concurrently as wanted. No page logic stands in the way, so whatever holds must hold
 * on the server.
 */

export type CapturedAction = { url: string; headers: Record<string, string>; args: unknown[] };

/** What an action answered: `{ok: true, data}` or `{ok: false, error}`, read from its RSC reply. */
export type ActionReply = {
  ok: boolean;
  error?: {
    code: string;
    message: string;
    retryAfterSeconds?: number;
    fieldErrors?: Record<string, string[]>;
  };
  setCookie: string;
};

/** Runs `submit` and captures the server action request it makes, which is aborted (never sent). */
export async function captureAction(page: Page, submit: () => Promise<void>): Promise<CapturedAction> {
  let resolve: (action: CapturedAction) => void = () => {};
  const captured = new Promise<CapturedAction>((r) => {
    resolve = r;
  });
  await page.route("**/*", async (route) => {
    const request = route.request();
    const headers = request.headers();
    if (request.method() !== "POST" || !headers["next-action"]) return route.continue();
    resolve({ url: request.url(), headers, args: JSON.parse(request.postData() ?? "[]") as unknown[] });
    await route.abort();
  });
  await submit();
  const action = await captured;
  await page.unrouteAll({ behavior: "ignoreErrors" });
  return action;
}

/** Posts the action with other arguments (encoded as React encodes plain JSON arguments). */
export async function callAction(
  request: APIRequestContext,
  action: CapturedAction,
  args: unknown[],
): Promise<ActionReply> {
  const headers: Record<string, string> = {
    accept: "text/x-component",
    "content-type": action.headers["content-type"] ?? "text/plain;charset=UTF-8",
    "next-action": action.headers["next-action"] ?? "",
    origin: new URL(action.url).origin,
  };
  if (action.headers["next-router-state-tree"])
    headers["next-router-state-tree"] = action.headers["next-router-state-tree"];
  const response = await request.post(action.url, { headers, data: JSON.stringify(args) });
  const text = await response.text();
  const reply = parseReply(text);
  if (!reply) throw new Error(`Not an action reply (${response.status()}): ${text.slice(0, 500)}`);
  return { ...reply, setCookie: response.headers()["set-cookie"] ?? "" };
}

/** The RSC reply is lines of `<id>:<json>`; the action's result is the object with an `ok` field. */
function parseReply(text: string): Omit<ActionReply, "setCookie"> | undefined {
  for (const line of text.split("\n")) {
    const json = line.replace(/^[0-9a-f]+:/, "");
    try {
      const value = JSON.parse(json) as unknown;
      if (value && typeof value === "object" && "ok" in value) return value as Omit<ActionReply, "setCookie">;
    } catch {
      // not JSON: another row of the reply
    }
  }
  return undefined;
}
