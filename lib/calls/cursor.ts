import { AppError } from "@/lib/errors";

/** Opaque keyset cursors (time + id), so paging stays stable while new rows arrive. */
export type Cursor = { at: Date; id: string };

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.at.toISOString()}|${cursor.id}`, "utf8").toString("base64url");
}

export function decodeCursor(value: string): Cursor {
  const [at, id] = Buffer.from(value, "base64url").toString("utf8").split("|");
  const date = at ? new Date(at) : undefined;
  if (!date || Number.isNaN(date.getTime()) || !id) {
    throw new AppError("validation", "The cursor is not valid; use nextCursor from the previous page.", {
      fieldErrors: { cursor: ["Not a cursor returned by this API."] },
    });
  }
  return { at: date, id };
}
