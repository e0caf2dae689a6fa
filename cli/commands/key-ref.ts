import { CliError } from "../errors";

type KeyLike = { id: string; name: string; prefix: string; revokedAt?: string | null };

/**
 * The one active key a person means by `ref`: its id, its name, or its prefix as listed (with or
 * without the trailing "…"). Two active keys under one name are a question back, never a guess.
 */
export function pickActiveKey<K extends KeyLike>(
  keys: readonly K[],
  ref: string,
  where: { owner: string; listCommand: string },
): K {
  const active = keys.filter((k) => !k.revokedAt);
  const prefix = ref.replace(/…$/, "");
  const matches = active.filter((k) => k.id === ref || k.name === ref || k.prefix === prefix);
  if (matches.length === 0)
    throw new CliError(`${sentenceStart(where.owner)} has no active key "${ref}". See ${where.listCommand}.`);
  if (matches.length > 1)
    throw new CliError(
      `"${ref}" matches ${matches.length} active keys of ${where.owner}: give a prefix from ${where.listCommand}.`,
    );
  return matches[0] as K;
}

const sentenceStart = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
