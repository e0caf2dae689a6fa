import { stripVTControlCharacters } from "node:util";

/**
 * How the CLI writes: aligned tables and key/value blocks for people, JSON for scripts. Colour
 * only on a terminal, and never when NO_COLOR is set (https://no-color.org).
 */

type Stream = NodeJS.WriteStream;

export function colorsFor(stream: Stream, env: NodeJS.ProcessEnv = process.env) {
  const enabled = Boolean(stream.isTTY) && !env.NO_COLOR && env.TERM !== "dumb";
  const wrap = (open: number, close: number) => (text: string) =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    enabled,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
  };
}
export type Colors = ReturnType<typeof colorsFor>;

export const stdoutColors = () => colorsFor(process.stdout);
export const stderrColors = () => colorsFor(process.stderr);

export type Column<T> = {
  header: string;
  value: (row: T) => string;
  /** colour applied after alignment, so padding is computed on the plain text */
  style?: (text: string, row: T) => string;
  /** cut longer cells with … (people read tables; scripts use --json) */
  max?: number;
};

export function renderTable<T>(rows: T[], columns: Column<T>[], colors: Colors = stdoutColors()): string {
  const cells = rows.map((row) =>
    columns.map((column) => clip(oneLine(column.value(row)), column.max ?? 60)),
  );
  const widths = columns.map((column, i) =>
    Math.max(column.header.length, ...cells.map((row) => visibleLength(row[i] ?? ""))),
  );
  const pad = (text: string, i: number) =>
    i === columns.length - 1 ? text : text + " ".repeat((widths[i] ?? 0) - visibleLength(text));
  const header = columns.map((column, i) => colors.bold(pad(column.header.toUpperCase(), i))).join("  ");
  const lines = cells.map((row, r) =>
    row
      .map((text, i) => {
        const style = columns[i]?.style;
        const padded = pad(text, i);
        return style ? padded.replace(text, style(text, rows[r] as T)) : padded;
      })
      .join("  ")
      .trimEnd(),
  );
  return [header.trimEnd(), ...lines].join("\n");
}

/** A key/value block: keys aligned, multi-line values indented under their first line. */
export function renderFields(
  fields: Array<[string, string | string[]]>,
  colors: Colors = stdoutColors(),
): string {
  const width = Math.max(...fields.map(([key]) => key.length));
  return fields
    .flatMap(([key, value]) => {
      const lines = Array.isArray(value) ? (value.length > 0 ? value : ["—"]) : [value || "—"];
      return lines.map(
        (line, i) => `${i === 0 ? colors.bold(key.padEnd(width)) : " ".repeat(width)}  ${line}`,
      );
    })
    .join("\n");
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function print(text = ""): void {
  process.stdout.write(`${text}\n`);
}

/** Progress and hints go to stderr, so stdout stays clean for pipes. */
export function note(text: string): void {
  process.stderr.write(`${text}\n`);
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ");
const visibleLength = (text: string) => stripVTControlCharacters(text).length;
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** "3 s ago"-style times would need a clock in tests; local ISO-ish times read well enough. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, "Z");
}

/**
 * Connection states: green when ready, red when failing, dim when off or not yet known; yellow for
 * the rest (connecting, needs-authorization: waiting on something, not broken).
 */
export function statusColor(status: string, colors: Colors): string {
  if (["ready", "succeeded", "approved", "healthy"].includes(status)) return colors.green(status);
  if (["crash-loop", "degraded", "failed", "tool error", "denied", "expired", "unhealthy"].includes(status))
    return colors.red(status);
  if (status === "disabled" || status === "unknown" || status === "cancelled") return colors.dim(status);
  return colors.yellow(status);
}
