/**
 * A command line as a POSIX shell would need it typed: each word that holds anything but plain
 * characters is single-quoted, so `["node", "my server.js"]` reads `node 'my server.js'` and two
 * arguments never look like one. Display only — Switchboard launches with an argument vector,
 * never through a shell. Our own four lines rather than a package: quoting for display needs no
 * parser, and the rule (POSIX single quotes, `'` as `'\''`) is fixed.
 */

// Characters no POSIX shell treats specially, anywhere in a word.
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function shellQuote(word: string): string {
  if (word === "") return "''";
  if (PLAIN_WORD.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

export const shellJoin = (words: readonly string[]) => words.map(shellQuote).join(" ");
