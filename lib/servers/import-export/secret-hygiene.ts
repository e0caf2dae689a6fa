import type { ConfigValue } from "@/lib/servers/config-schema";
import { deriveSecretName } from "./slug";

/**
 * Which client-file values must not be stored as plain text, and what replaces them. A value under
 * a name that looks like a credential is moved into a stored secret and referenced; placeholders the
 * client would have expanded become references too (`${VAR}` → fromEnv, `${input:id}` → a secret
 * someone must set, since Switchboard cannot prompt like VS Code does).
 */

const SECRET_WORDS = ["TOKEN", "KEY", "SECRET", "PASSWORD", "AUTH"];

export function looksLikeSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_WORDS.some((word) => upper.includes(word));
}

/** A value lifted out of the file into a stored secret (the value never appears in a report). */
export type SecretWrite = { name: string; value: string; from: string };
/** A secret the configuration refers to but the file holds no value for (a VS Code input). */
export type SecretReference = { name: string; from: string };

export type Placeholder =
  | { kind: "literal"; value: string }
  | { kind: "env"; variable: string }
  | { kind: "input"; id: string };

const ENV_NAME = "[A-Za-z_][A-Za-z0-9_]*";
// `${VAR}` (Claude Code), `${env:VAR}` (Cursor, VS Code) and `${VAR:-default}` (Claude Code).
const ENV_PLACEHOLDER = new RegExp(`^\\$\\{(?:env:)?(${ENV_NAME})(:-[^}]*)?\\}$`);
const INPUT_PLACEHOLDER = /^\$\{input:([^}]+)\}$/;

export function readPlaceholder(value: string): Placeholder {
  const input = INPUT_PLACEHOLDER.exec(value.trim());
  if (input?.[1]) return { kind: "input", id: input[1] };
  const env = ENV_PLACEHOLDER.exec(value.trim());
  if (env?.[1]) return { kind: "env", variable: env[1] };
  return { kind: "literal", value };
}

export function inputSecretName(id: string): string {
  return deriveSecretName("", id) || "vscode-input";
}

/** Collects what an entry's values turn into, keeping secret names unique within the server. */
export class SecretCollector {
  readonly writes: SecretWrite[] = [];
  readonly references: SecretReference[] = [];
  readonly warnings: string[] = [];

  constructor(private readonly server: string) {}

  /**
   * One value of env, headers or a bearer credential. `field` is where it came from (for the
   * report); `isSecret` says whether a literal must move into a stored secret.
   */
  convert(value: string, options: { field: string; variable: string; isSecret: boolean }): ConfigValue {
    const placeholder = readPlaceholder(value);
    switch (placeholder.kind) {
      case "env":
        this.warnings.push(
          `${options.field} reads ${placeholder.variable} from Switchboard's own environment (it was the client's).`,
        );
        return { fromEnv: placeholder.variable };
      case "input": {
        const name = inputSecretName(placeholder.id);
        if (!this.references.some((r) => r.name === name))
          this.references.push({ name, from: options.field });
        return { secret: name };
      }
      case "literal":
        if (value.includes("${")) {
          this.warnings.push(
            `${options.field} contains a \${…} placeholder that Switchboard does not expand.`,
          );
        }
        if (!options.isSecret || value === "") return value;
        return { secret: this.store(options.variable, value, options.field) };
    }
  }

  private store(variable: string, value: string, from: string): string {
    const base = deriveSecretName(this.server, variable);
    let name = base;
    for (let n = 2; this.writes.some((w) => w.name === name); n++) name = `${base}-${n}`;
    this.writes.push({ name, value, from });
    return name;
  }
}

// An argument that carries a credential inline (`--api-key=…`, `Authorization: Bearer …`).
const CREDENTIAL_ARG = /(?:token|key|secret|password|auth)[^=:\s]*[=:]\s*\S|\bbearer\s+\S/i;

/** Arguments cannot hold references, so a credential there stays plain text: say so. */
export function findCredentialArgs(args: string[]): string[] {
  return args.flatMap((arg, index) =>
    CREDENTIAL_ARG.test(arg) && readPlaceholder(arg).kind === "literal" && !/\$\{[^}]+\}/.test(arg)
      ? [
          `args[${index}] looks like it holds a credential; arguments are stored as plain text — pass it through an env variable instead.`,
        ]
      : [],
  );
}
