import { AppError } from "@/lib/errors";

export const MAX_BODY_BYTES = 256 * 1024;

/**
 * Reads a JSON body with a size cap, so a huge or malformed body is a clear 4xx, never a 500.
 * The body must say it is JSON: a browser sends an untyped or text/plain body to another origin
 * without asking first (no CORS preflight), so accepting one would let any page write (CSRF).
 */
export async function readJsonBody(req: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  const type = req.headers.get("content-type");
  if (!type || !/^application\/([a-z.+-]*\+)?json\b/i.test(type)) {
    throw new AppError(
      "unsupported_media_type",
      `Send the body as JSON with Content-Type: application/json (got ${type ? `"${type}"` : "no Content-Type"}).`,
    );
  }
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(limit);
  const text = await readTextWithLimit(req, limit);
  if (text.trim() === "") throw new AppError("validation", "The request body is empty; send a JSON object.");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError("validation", `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

async function readTextWithLimit(req: Request, limit: number): Promise<string> {
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export const tooLarge = (limit: number) =>
  new AppError("payload_too_large", `The request body is larger than ${Math.round(limit / 1024)} KiB.`);
