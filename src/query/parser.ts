import { type Clause, FIELD_NAME_PATTERN, MAX_CLAUSES, NUMBER_PATTERN, type Query, type Value } from "./ast";
import { queryError, syntaxError } from "./errors";
import { type Token, tokenize } from "./tokenizer";

/**
 * Recursive-descent parser for `q` (spec 4.13):
 *
 *   query  := ε | clause (AND clause)*        AND in any case; at most 10 clauses
 *   clause := ["-"] field operator value
 *   value  := string | ["-"]number | null | word
 *
 * A blank query has no clauses (matches everything). Every failure is the 400 "Invalid search query"
 * problem whose detail says what was expected and where.
 */
export function parseQuery(input: string): Query {
  return new Parser(input).parse();
}

const OPERATOR_LIST = ": ~ > < >= <=";

class Parser {
  private readonly tokens: Token[];
  private index = 0;

  constructor(private readonly input: string) {
    this.tokens = tokenize(input);
  }

  parse(): Query {
    const clauses: Clause[] = [];
    if (this.peek().type === "end") return { clauses };
    clauses.push(this.clause());
    while (this.peek().type !== "end") {
      this.expectAnd();
      if (clauses.length === MAX_CLAUSES) {
        throw queryError(
          `Too many clauses: a query may have at most ${MAX_CLAUSES} clauses (clause ${MAX_CLAUSES + 1} starts at position ${this.peek().start + 1}).`,
        );
      }
      clauses.push(this.clause());
    }
    return { clauses };
  }

  private clause(): Clause {
    const negated = this.peek().type === "minus";
    if (negated) this.next();
    const fieldToken = this.next();
    if (fieldToken.type !== "word" || !FIELD_NAME_PATTERN.test(fieldToken.text)) {
      throw this.error(`Expected a field name (letters, digits, _) but found ${describe(fieldToken)}`, fieldToken);
    }
    const field = fieldToken.text;
    const operatorToken = this.next();
    if (operatorToken.type !== "operator") {
      throw this.error(`Expected an operator (${OPERATOR_LIST}) after '${field}' but found ${describe(operatorToken)}`, operatorToken);
    }
    return { negated, field, operator: operatorToken.operator, value: this.value(field + operatorToken.operator) };
  }

  private value(prefix: string): Value {
    const token = this.next();
    if (token.type === "string") return { kind: "string", value: token.value };
    if (token.type === "word") {
      if (token.text.toLowerCase() === "null") return { kind: "null" };
      if (NUMBER_PATTERN.test(token.text)) return { kind: "number", text: token.text };
      return { kind: "word", text: token.text };
    }
    if (token.type === "minus") {
      const number = this.peek();
      if (number.type === "word" && number.start === token.end && NUMBER_PATTERN.test(number.text)) {
        this.next();
        return { kind: "number", text: `-${number.text}` };
      }
      throw this.error("Expected a number right after '-'", number);
    }
    throw this.error(`Expected a value after '${prefix}' but found ${describe(token)}`, token);
  }

  private expectAnd(): void {
    const token = this.next();
    if (token.type === "word" && token.text.toUpperCase() === "AND") return;
    if (token.type === "word" && token.text.toUpperCase() === "OR") {
      throw this.error("OR is not supported: clauses can only be joined with AND", token);
    }
    throw this.error(`Expected AND between clauses but found ${describe(token)}`, token);
  }

  private peek(): Token {
    return this.tokens[this.index]!;
  }

  private next(): Token {
    const token = this.tokens[this.index]!;
    if (token.type !== "end") this.index++;
    return token;
  }

  private error(message: string, token: Token) {
    return syntaxError(message, token.start, this.input);
  }
}

function describe(token: Token): string {
  switch (token.type) {
    case "word":
      return `'${token.text.length > 40 ? `${token.text.slice(0, 40)}...` : token.text}'`;
    case "string":
      return "a quoted string";
    case "operator":
      return `'${token.operator}'`;
    case "minus":
      return "'-'";
    case "end":
      return "nothing";
  }
}
