/**
 * RFC 6570 URI templates, as far as a person filling in a resource template's variables needs:
 * the variable names, and the URI they make. The UI never imports the MCP SDK, so this is ours;
 * the server checks the URI against the template again (lib/inspect/catalog-target.ts).
 */

const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g;

/** The variables of a template, in order, each once (`{id}`, `{+path}`, `{?q,lang}`). */
export function templateVariables(template: string): string[] {
  const names = [...template.matchAll(EXPRESSION)].flatMap((match) =>
    (match[2] ?? "")
      .split(",")
      .map((name) => name.replace(/[*]$|:\d+$/, "").trim())
      .filter(Boolean),
  );
  return [...new Set(names)];
}

const operators: Record<string, { first: string; separator: string; named: boolean; reserved: boolean }> = {
  "": { first: "", separator: ",", named: false, reserved: false },
  "+": { first: "", separator: ",", named: false, reserved: true },
  "#": { first: "#", separator: ",", named: false, reserved: true },
  ".": { first: ".", separator: ".", named: false, reserved: false },
  "/": { first: "/", separator: "/", named: false, reserved: false },
  ";": { first: ";", separator: ";", named: true, reserved: false },
  "?": { first: "?", separator: "&", named: true, reserved: false },
  "&": { first: "&", separator: "&", named: true, reserved: false },
};

/** The URI the values make; a variable left empty is left out, as RFC 6570 says of undefined ones. */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(EXPRESSION, (_whole, operator: string, list: string) => {
    const op = operators[operator] ?? operators[""];
    if (!op) return "";
    const parts = list
      .split(",")
      .map((raw) => raw.replace(/[*]$|:\d+$/, "").trim())
      .filter((name) => values[name] !== undefined && values[name] !== "")
      .map((name) => {
        const value = values[name] ?? "";
        const encoded = op.reserved ? encodeURI(value) : encodeURIComponent(value);
        return op.named ? `${name}=${encoded}` : encoded;
      });
    return parts.length === 0 ? "" : op.first + parts.join(op.separator);
  });
}
