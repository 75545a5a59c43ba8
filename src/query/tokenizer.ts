import type { Operator } from "./ast";
import { syntaxError } from "./errors";

/** Lexical tokens of `q`. `start`/`end` are 0-based indexes into the query text. */
export type Token = { start: number; end: number } & (
  | { type: "word"; text: string }
  | { type: "string"; value: string }
  | { type: "operator"; operator: Operator }
  | { type: "minus" }
  | { type: "end" }
);

const WHITESPACE = /\s/;
/** Characters that end a bare word. `-` only starts a word as negation or a sign, so it may appear inside. */
const WORD_BREAK = /[\s":~<>=()]/;

/**
 * Splits a query into tokens, skipping whitespace. Strings are double-quoted; a backslash makes the
 * next character literal (`\"`, `\\`). Throws the 400 "Invalid search query" problem on bad input.
 */
export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i]!;
    if (WHITESPACE.test(ch)) {
      i++;
    } else if (ch === '"') {
      i = readString(input, i, tokens);
    } else if (ch === ">" || ch === "<") {
      const withEquals = input[i + 1] === "=";
      const operator = (withEquals ? `${ch}=` : ch) as Operator;
      tokens.push({ type: "operator", operator, start: i, end: i + operator.length });
      i += operator.length;
    } else if (ch === ":" || ch === "~") {
      tokens.push({ type: "operator", operator: ch, start: i, end: i + 1 });
      i++;
    } else if (ch === "-") {
      tokens.push({ type: "minus", start: i, end: i + 1 });
      i++;
    } else if (ch === "=") {
      throw syntaxError("Unexpected '=': use ':' for equality, or >=, <=", i, input);
    } else if (ch === "(" || ch === ")") {
      throw syntaxError(`Unexpected '${ch}': parentheses are not supported, clauses are joined with AND only`, i, input);
    } else {
      let end = i + 1;
      while (end < input.length && !WORD_BREAK.test(input[end]!)) end++;
      tokens.push({ type: "word", text: input.slice(i, end), start: i, end });
      i = end;
    }
  }
  tokens.push({ type: "end", start: input.length, end: input.length });
  return tokens;
}

function readString(input: string, start: number, tokens: Token[]): number {
  let value = "";
  let i = start + 1;
  while (i < input.length) {
    const ch = input[i]!;
    if (ch === '"') {
      tokens.push({ type: "string", value, start, end: i + 1 });
      return i + 1;
    }
    if (ch === "\\") {
      if (i + 1 >= input.length) break;
      value += input[i + 1];
      i += 2;
    } else {
      value += ch;
      i++;
    }
  }
  throw syntaxError("Unterminated string: the double quote opened here is never closed", start, input);
}
