import { AppError } from "@/lib/errors";

/**
 * JSON text → value, with errors that name a line and column. V8's own messages give no position
 * for some mistakes ("Unexpected token '}'"), so this is a small recursive-descent reader. It also
 * accepts what VS Code and Cursor write in their files (JSONC): `//` and `/* *\/` comments and
 * trailing commas.
 */
export function parseJsonText(text: string, subject = "The configuration"): unknown {
  const reader = new JsonReader(text.replace(/^\uFEFF/, ""));
  try {
    reader.skipBlank();
    if (reader.atEnd()) throw reader.fail("the text is empty");
    const value = reader.readValue(0);
    reader.skipBlank();
    if (!reader.atEnd()) throw reader.fail("unexpected text after the end of the JSON value");
    return value;
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    const message = `${subject} is not valid JSON: line ${error.line}, column ${error.column}: ${error.reason}.`;
    throw new AppError("validation", message, { fieldErrors: { config: [message] } });
  }
}

class JsonSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(reason);
  }
}

// Deeper nesting than any client configuration needs; stops a hostile body from exhausting the stack.
const MAX_DEPTH = 200;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON strings may not contain raw control characters; this range is the grammar saying so.
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

class JsonReader {
  private pos = 0;
  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  fail(reason: string, at = this.pos): JsonSyntaxError {
    const before = this.text.slice(0, at);
    const line = before.split("\n").length;
    const column = at - (before.lastIndexOf("\n") + 1) + 1;
    return new JsonSyntaxError(reason, line, column);
  }

  /** Whitespace and comments. */
  skipBlank(): void {
    for (;;) {
      const rest = this.text.slice(this.pos, this.pos + 2);
      if (/^\s/.test(rest)) this.pos++;
      else if (rest === "//") {
        const end = this.text.indexOf("\n", this.pos);
        this.pos = end === -1 ? this.text.length : end + 1;
      } else if (rest === "/*") {
        const end = this.text.indexOf("*/", this.pos + 2);
        if (end === -1) throw this.fail("a /* comment is never closed");
        this.pos = end + 2;
      } else return;
    }
  }

  readValue(depth: number): unknown {
    if (depth > MAX_DEPTH) throw this.fail(`nesting deeper than ${MAX_DEPTH} levels`);
    const char = this.text[this.pos];
    if (char === "{") return this.readObject(depth);
    if (char === "[") return this.readArray(depth);
    if (char === '"') return this.readString();
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.pos;
    const number = NUMBER.exec(this.text);
    if (number) {
      this.pos += number[0].length;
      return Number(number[0]);
    }
    if (char === undefined) throw this.fail("the text ends where a value was expected");
    if (char === "'") throw this.fail("strings need double quotes, not single quotes");
    throw this.fail(`expected a value but found ${describeChar(char)}`);
  }

  private readString(): string {
    STRING.lastIndex = this.pos;
    const match = STRING.exec(this.text);
    if (!match) throw this.fail(this.stringProblem());
    this.pos += match[0].length;
    return JSON.parse(match[0]) as string;
  }

  /** Why the string starting here is not valid, pointing at the offending character. */
  private stringProblem(): string {
    for (let i = this.pos + 1; i < this.text.length; i++) {
      const char = this.text[i] as string;
      if (char === '"') break;
      if (char === "\\") {
        if (!/^\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/.test(this.text.slice(i, i + 6))) {
          this.pos = i;
          return "invalid escape sequence in a string";
        }
        i++;
      } else if (char < " ") {
        this.pos = i;
        return char === "\n"
          ? "a string is not closed before the end of the line"
          : "control character in a string";
      }
    }
    return "a string is never closed";
  }

  private readObject(depth: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.pos++;
    for (;;) {
      this.skipBlank();
      if (this.text[this.pos] === "}") {
        this.pos++;
        return result;
      }
      if (this.text[this.pos] !== '"') {
        if (this.atEnd()) throw this.fail("the text ends inside an object");
        throw this.fail(
          this.text[this.pos] === "'"
            ? "property names need double quotes, not single quotes"
            : `expected a "quoted" property name or }`,
        );
      }
      const key = this.readString();
      this.skipBlank();
      if (this.text[this.pos] !== ":") throw this.fail(`expected : after the property name "${key}"`);
      this.pos++;
      this.skipBlank();
      // defineProperty: a key named __proto__ must stay data, as JSON.parse keeps it.
      Object.defineProperty(result, key, {
        value: this.readValue(depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skipBlank();
      const next = this.text[this.pos];
      if (next === ",") this.pos++;
      else if (next !== "}") {
        throw this.fail(
          this.atEnd() ? "the text ends inside an object" : "expected , or } after a property value",
        );
      }
    }
  }

  private readArray(depth: number): unknown[] {
    const result: unknown[] = [];
    this.pos++;
    for (;;) {
      this.skipBlank();
      if (this.text[this.pos] === "]") {
        this.pos++;
        return result;
      }
      result.push(this.readValue(depth + 1));
      this.skipBlank();
      const next = this.text[this.pos];
      if (next === ",") this.pos++;
      else if (next !== "]") {
        throw this.fail(this.atEnd() ? "the text ends inside a list" : "expected , or ] after a list item");
      }
    }
  }
}

function describeChar(char: string): string {
  if (char === "}" || char === "]" || char === "," || char === ":") return `"${char}"`;
  return /[A-Za-z]/.test(char) ? "a bare word (strings need double quotes)" : `"${char}"`;
}
