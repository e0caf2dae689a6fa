import {
  createScanner,
  type ParseErrorCode,
  printParseErrorCode,
  type SyntaxKind,
  visit,
} from "jsonc-parser";
import { AppError } from "@/lib/errors";

/**
 * JSON text → value, with errors that name a line and column. Read by jsonc-parser (the parser
 * VS Code uses for its own settings), so what VS Code and Cursor write in their files (JSONC: `//`
 * and `/* *\/` comments, trailing commas) is accepted; the reasons are worded here, for people.
 */
export function parseJsonText(text: string, subject = "The configuration"): unknown {
  const source = text.replace(/^\uFEFF/, "");
  const result = checkShape(source) ?? readValue(source);
  if ("value" in result) return result.value;
  const message = `${subject} is not valid JSON: line ${result.line}, column ${result.column}: ${result.reason}.`;
  throw new AppError("validation", message, { fieldErrors: { config: [message] } });
}

type Problem = { reason: string; line: number; column: number };

// Deeper nesting than any client configuration needs; stops a hostile body from exhausting the stack
// (jsonc-parser descends recursively, so the depth is counted on the flat token stream first).
const MAX_DEPTH = 200;
// SyntaxKind is a const enum, which `isolatedModules` code cannot read: the values it names.
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const isTrivia = (kind: SyntaxKind) => kind >= 12 && kind <= 15;
const EOF = 17;

/** Empty text, or nesting too deep to hand to a recursive parser. */
function checkShape(text: string): Problem | undefined {
  const scanner = createScanner(text, false);
  const here = (reason: string): Problem => ({
    reason,
    line: scanner.getTokenStartLine() + 1,
    column: scanner.getTokenStartCharacter() + 1,
  });
  let depth = 0;
  let hasContent = false;
  for (let kind = scanner.scan(); kind !== EOF; kind = scanner.scan()) {
    // An unclosed /* comment is content: the parser below says what is wrong with it.
    if (!isTrivia(kind) || scanner.getTokenError() !== 0) hasContent = true;
    if (kind === OPEN_BRACE || kind === OPEN_BRACKET) {
      if (++depth > MAX_DEPTH) return here(`nesting deeper than ${MAX_DEPTH} levels`);
    } else if (kind === CLOSE_BRACE || kind === CLOSE_BRACKET) depth = Math.max(0, depth - 1);
  }
  return hasContent ? undefined : here("the text is empty");
}

type Container = { value: Record<string, unknown> | unknown[]; key?: string };

/** The value, built from the parser's callbacks; or the first problem it reported. */
function readValue(text: string): { value: unknown } | Problem {
  const open: Container[] = [];
  let root: { value: unknown } | undefined;
  let problem: Problem | undefined;
  const add = (value: unknown) => {
    const parent = open.at(-1);
    if (!parent) root = { value };
    else if (Array.isArray(parent.value)) parent.value.push(value);
    // defineProperty: a key named __proto__ must stay data, as JSON.parse keeps it.
    else
      Object.defineProperty(parent.value, parent.key ?? "", {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  };
  const begin = (value: Container["value"]) => {
    add(value);
    open.push({ value });
  };
  visit(
    text,
    {
      onObjectBegin: () => begin({}),
      onArrayBegin: () => begin([]),
      onObjectProperty: (name) => {
        const parent = open.at(-1);
        if (parent) parent.key = name;
      },
      onObjectEnd: () => void open.pop(),
      onArrayEnd: () => void open.pop(),
      onLiteralValue: add,
      onError: (code, offset, length, line, character) => {
        problem ??= {
          reason: describeError(code, {
            text,
            offset,
            length,
            parent: open.at(-1),
            isAfterRoot: !!root && !open.length,
          }),
          line: line + 1,
          column: character + 1,
        };
      },
    },
    { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false },
  );
  return problem ?? root ?? { reason: "the text ends where a value was expected", line: 1, column: 1 };
}

type ErrorContext = {
  text: string;
  offset: number;
  length: number;
  /** The object or list being read when the parser stopped. */
  parent: Container | undefined;
  /** A whole value was read already: anything more is extra. */
  isAfterRoot: boolean;
};

function describeError(
  code: ParseErrorCode,
  { text, offset, length, parent, isAfterRoot }: ErrorContext,
): string {
  const char = text[offset];
  const inList = Array.isArray(parent?.value);
  switch (printParseErrorCode(code)) {
    case "InvalidSymbol":
      if (isAfterRoot) return "unexpected text after the end of the JSON value";
      if (char === "'") return "strings and property names need double quotes, not single quotes";
      return `expected a value but found ${describeChar(char)}`;
    case "ValueExpected":
      if (char === undefined) return "the text ends where a value was expected";
      return `expected a value but found ${describeChar(char)}`;
    case "PropertyNameExpected":
      return `expected a "quoted" property name or }`;
    case "ColonExpected":
      return `expected : after the property name "${parent?.key ?? ""}"`;
    case "CommaExpected":
      return inList ? "expected , or ] after a list item" : "expected , or } after a property value";
    case "CloseBraceExpected":
      return char === undefined ? "the text ends inside an object" : "expected , or } after a property value";
    case "CloseBracketExpected":
      return char === undefined ? "the text ends inside a list" : "expected , or ] after a list item";
    case "EndOfFileExpected":
      return "unexpected text after the end of the JSON value";
    case "InvalidCommentToken":
    case "UnexpectedEndOfComment":
      return "a /* comment is never closed";
    case "UnexpectedEndOfString":
      return /[\r\n]/.test(text[offset + length] ?? "")
        ? "a string is not closed before the end of the line"
        : "a string is never closed";
    case "InvalidEscapeCharacter":
    case "InvalidUnicode":
      return "invalid escape sequence in a string";
    case "InvalidCharacter":
      return "control character in a string";
    case "InvalidNumberFormat":
    case "UnexpectedEndOfNumber":
      return "a number JSON cannot read";
    default:
      return "the text is not JSON here";
  }
}

function describeChar(char: string | undefined): string {
  if (char === undefined) return "the end of the text";
  return /[A-Za-z]/.test(char) ? "a bare word (strings need double quotes)" : `"${char}"`;
}
