/**
 * Emits `medparts/_operations.py` of the Python SDK from the Medparts OpenAPI 3.1 document: one method per operation
 * of the customer (`/customer/api`) and vendor (`/vendor/api`) APIs on the mixin class `Operations`, and a TypedDict
 * (or alias) for every request body and response `data` they use, components and inline shapes alike.
 *
 * Pure and deterministic: the same document gives the same text, byte for byte (no clock, no I/O, no Map-order
 * surprises: everything follows the document's own order).
 *
 * Method names are derived from the method and path, not the operationId (see `methodName`); when two operations
 * would get the same name, both fall back to the snake_case operationId. Every operation stays findable by its
 * operationId in the emitted `OPERATIONS` table and in its docstring.
 */

import { keyedWrites } from "./document";

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is untyped JSON, read field by field.
type Json = any;
/** A JSON object of the document (a schema, an operation, a parameter...). */
type JsonObject = Record<string, Json>;
type Schema = JsonObject | boolean | undefined;

const API_ROOTS = ["/customer/api", "/vendor/api"];
/** The contract itself (no token, no envelope): fetch it with `client.request("GET", ...)` if ever needed. */
const SKIPPED_PATHS = new Set(["/customer/api/openapi.json"]);
const HTTP_METHODS = ["get", "post", "put", "patch", "delete"];
const WRITE_METHODS = new Set(["post", "put", "patch", "delete"]);
/** Header parameters the client core sends itself (version, correlation id, session bookmark, idempotency key). */
const CORE_HEADERS = new Set(["medparts-version", "x-correlation-id", "x-session-bookmark", "idempotency-key"]);
/** POST actions whose last path segment is a noun, not a verb: how their method is named ({r}: the resource words). */
const NOUN_ACTIONS: Record<string, string> = {
  detail: "get_{r}_detail",
  "change-decision": "decide_{r}_change",
  "repair-decision": "decide_{r}_repair",
  inbound: "post_{r}_inbound",
  units: "record_{r}_units",
};
/** Names of the emitted module that a schema's name must not take. */
const RESERVED_TYPE_NAMES = new Set([
  "Any",
  "Dict",
  "List",
  "Literal",
  "Optional",
  "TypedDict",
  "Union",
  "Operations",
  "OPERATIONS",
  "KEYED_WRITES",
  "API_VERSION",
  "TYPE_CHECKING",
  "annotations",
  "quote",
]);
const PY_KEYWORDS = new Set([
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
  "yield",
  "match",
  "case",
  "print",
  "exec",
]);
/** Method parameter names the generated signatures use themselves. */
const RESERVED_ARGS = new Set(["self", "body", "content", "idempotency_key"]);

// ---------------------------------------------------------------------------------------------------------------
// Text helpers

function words(s: string): string[] {
  return s
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

export function snake(s: string): string {
  return words(s).join("_");
}

function pascal(s: string): string {
  return words(s)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("");
}

function singular(snakeWord: string): string {
  const parts = snakeWord.split("_");
  const last = parts[parts.length - 1] ?? "";
  let one = last;
  if (/ies$/.test(last)) one = `${last.slice(0, -3)}y`;
  else if (/[^s]s$/.test(last)) one = last.slice(0, -1);
  parts[parts.length - 1] = one;
  return parts.join("_");
}

function isIdentifier(s: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) && !PY_KEYWORDS.has(s);
}

/** A Python string literal (JSON's escapes are Python's too). */
function pyStr(s: string): string {
  return JSON.stringify(s);
}

/** A scalar as a Python literal. */
export function pyLiteral(v: unknown): string {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "None";
  return pyStr(String(v));
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.replace(/\r\n?/g, "\n").split("\n")) {
    const ws = paragraph.split(/\s+/).filter(Boolean);
    if (ws.length === 0) {
      out.push("");
      continue;
    }
    let line = "";
    for (const w of ws) {
      if (line && line.length + 1 + w.length > width) {
        out.push(line);
        line = w;
      } else line = line ? `${line} ${w}` : w;
    }
    if (line) out.push(line);
  }
  while (out.length && out[out.length - 1] === "") out.pop();
  return out;
}

/** A docstring body line: backslashes and triple quotes made harmless. */
function docSafe(line: string): string {
  return line.replace(/\\/g, "\\\\").replace(/"""/g, '\\"\\"\\"');
}

function docstring(lines: string[], indent: string): string[] {
  const body = lines.map(docSafe);
  while (body.length && body[body.length - 1] === "") body.pop();
  if (body.length === 0) return [];
  const first = body[0] ?? "";
  if (body.length === 1 && !first.endsWith('"')) return [`${indent}"""${first}"""`];
  return [`${indent}"""${body[0]}`, ...body.slice(1).map((l) => (l ? indent + l : "")), `${indent}"""`];
}

function comment(text: string | undefined, indent: string, width = 100): string[] {
  if (!text) return [];
  return wrap(text, width - indent.length - 2).map((l) => `${indent}# ${l}`.trimEnd());
}

// ---------------------------------------------------------------------------------------------------------------
// Types

/** A reference to a generated name inside a type expression, resolved when the expression is written out. */
const REF_OPEN = "\u0001";
const REF_CLOSE = "\u0002";
const ref = (name: string) => `${REF_OPEN}${name}${REF_CLOSE}`;

interface TypeDef {
  name: string;
  /** Names it needs defined before it at run time (bases, functional TypedDict values, alias values). */
  deps: string[];
  /** Emits its code; `defined` tells which names exist already (the others are quoted where evaluated). */
  render: (defined: Set<string>) => string[];
}

interface Field {
  key: string;
  type: string;
  required: boolean;
  description?: string;
}

function refsIn(expr: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`${REF_OPEN}([^${REF_CLOSE}]+)${REF_CLOSE}`, "g");
  for (const m of expr.matchAll(re)) if (m[1]) out.push(m[1]);
  return out;
}

/** The expression as source: bare names, or quoted ones for names not yet defined where it is evaluated. */
function resolveExpr(expr: string, defined: Set<string> | null): string {
  const re = new RegExp(`${REF_OPEN}([^${REF_CLOSE}]+)${REF_CLOSE}`, "g");
  return expr.replace(re, (_m, name: string) => (defined === null || defined.has(name) ? name : pyStr(name)));
}

/** Splits a top-level `Name[a, b, ...]` over lines (inside brackets Python continues lines) when `prefix + expr` is long. */
function breakExpr(prefix: string, expr: string, suffix: string, indent: string, width = 120): string[] {
  const line = `${prefix}${expr}${suffix}`;
  if (line.length <= width) return [line];
  const open = expr.indexOf("[");
  if (open <= 0 || !expr.endsWith("]")) return [line];
  const inner = expr.slice(open + 1, -1);
  const args: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "[") depth++;
    else if (c === "]") depth--;
    else if (c === "," && depth === 0) {
      args.push(inner.slice(start, i).trim());
      start = i + 1;
    }
  }
  args.push(inner.slice(start).trim());
  const inside = `${indent}    `;
  return [
    `${prefix}${expr.slice(0, open + 1)}`,
    // One argument keeps no trailing comma: `Optional[X,]` would pass a tuple.
    ...args.flatMap((a, i) => breakExpr(inside, a, args.length > 1 || i < args.length - 1 ? "," : "", inside, width)),
    `${indent}]${suffix}`,
  ];
}

class TypeEmitter {
  private readonly schemas: JsonObject;
  /** Component name -> Python name. */
  private readonly componentNames = new Map<string, string>();
  private readonly usedNames = new Set<string>(RESERVED_TYPE_NAMES);
  readonly defs = new Map<string, TypeDef>();
  private readonly building = new Set<string>();
  private readonly nullableComponents = new Set<string>();

  constructor(document: JsonObject) {
    this.schemas = document.components?.schemas ?? {};
    // Every component keeps its own name (so inline names never depend on which components are reachable).
    for (const name of Object.keys(this.schemas)) {
      let py = pascal(name) || "Schema";
      if (!/^[A-Za-z_]/.test(py)) py = `S${py}`;
      if (this.usedNames.has(py)) py = this.unique(`${py}Schema`);
      this.usedNames.add(py);
      this.componentNames.set(name, py);
    }
  }

  private unique(base: string): string {
    let name = base;
    for (let i = 2; this.usedNames.has(name); i++) name = `${base}${i}`;
    return name;
  }

  private newName(hint: string): string {
    const name = this.unique(pascal(hint) || "Shape");
    this.usedNames.add(name);
    return name;
  }

  resolve(schema: Schema): JsonObject | undefined {
    let s = schema;
    for (let i = 0; i < 32 && s && typeof s === "object" && typeof s.$ref === "string"; i++) {
      s = this.schemas[s.$ref.replace(/^#\/components\/schemas\//, "")];
    }
    return s && typeof s === "object" ? s : undefined;
  }

  /** The type of a component reference: its name (Optional[...] when nullable), defining it on first use. */
  componentType(refPath: string): string {
    const name = this.component(refPath);
    if (!name) return "Any";
    return this.nullableComponents.has(name) ? `Optional[${ref(name)}]` : ref(name);
  }

  /** The Python name of a component, defining it on first use. */
  component(refPath: string): string | null {
    const m = /^#\/components\/schemas\/(.+)$/.exec(refPath);
    const key = m?.[1];
    if (key === undefined || !(key in this.schemas)) return null;
    const name = this.componentNames.get(key);
    if (!name) return null;
    if (!this.defs.has(name) && !this.building.has(name)) {
      this.building.add(name);
      this.defineNamed(name, this.schemas[key]);
      this.building.delete(name);
    }
    return name;
  }

  /** Defines `name` for a schema: a TypedDict for an object shape, else an alias of its type. */
  private defineNamed(name: string, schema: Schema): void {
    const s = typeof schema === "object" ? schema : undefined;
    // A nullable object shape is its TypedDict; references to it say Optional[...] (see `component`).
    if (s && this.isObjectShape(s)) {
      if (this.isNullable(s)) this.nullableComponents.add(name);
      this.defineTypedDict(name, s, name);
      return;
    }
    if (s && Array.isArray(s.allOf) && this.objectAllOf(s)) {
      if (this.isNullable(s)) this.nullableComponents.add(name);
      this.defineAllOf(name, s, name);
      return;
    }
    const expr = this.typeOf(schema, name, true);
    const description = s?.description;
    this.defs.set(name, {
      name,
      deps: refsIn(expr),
      render: (defined) => [...comment(description, ""), ...breakExpr(`${name} = `, resolveExpr(expr, defined), "", "")],
    });
  }

  private isNullable(s: JsonObject): boolean {
    return Array.isArray(s.type) && s.type.includes("null");
  }

  private isObjectShape(s: JsonObject): boolean {
    const t = Array.isArray(s.type) ? s.type.filter((x: string) => x !== "null") : [s.type];
    const objectish = t.includes("object") || (s.type === undefined && s.properties);
    return Boolean(objectish && s.properties && Object.keys(s.properties).length > 0 && !s.oneOf && !s.anyOf && !s.allOf);
  }

  /** allOf parts that are only annotations (a description beside a $ref) say nothing about the type. */
  private meaningfulParts(parts: Schema[]): Schema[] {
    return parts.filter(
      (p) =>
        p === false ||
        (typeof p === "object" &&
          ["$ref", "type", "properties", "items", "oneOf", "anyOf", "allOf", "enum", "const", "additionalProperties"].some((k) => k in p)),
    );
  }

  /** True when every meaningful part of an allOf is an object shape (a TypedDict) that can be a base or inline part. */
  private objectAllOf(s: JsonObject): boolean {
    const parts = this.meaningfulParts(s.allOf);
    if (parts.length < 2) return false;
    return parts.every((p) => {
      if (typeof p !== "object") return false;
      if (typeof p.$ref === "string") {
        const target = this.resolve(p);
        return Boolean(target && (this.isObjectShape(target) || (Array.isArray(target.allOf) && this.objectAllOf(target))));
      }
      return this.isObjectShape(p);
    });
  }

  private fieldsOf(s: JsonObject, hint: string): Field[] {
    const required = new Set<string>(Array.isArray(s.required) ? s.required : []);
    return Object.entries(s.properties ?? {}).map(([key, prop]) => ({
      key,
      type: this.typeOf(prop as Schema, `${hint} ${pascal(key) || "Field"}`, false),
      required: required.has(key),
      description: typeof prop === "object" && prop ? this.describe(prop as JsonObject) : undefined,
    }));
  }

  private describe(prop: JsonObject): string | undefined {
    let d: string | undefined = prop.description;
    if (!d && Array.isArray(prop.allOf)) d = prop.allOf.find((p: Json) => p && typeof p.description === "string")?.description;
    if (!d && typeof prop.$ref === "string") return undefined;
    return d;
  }

  private defineAllOf(name: string, s: JsonObject, hint: string): void {
    const bases: string[] = [];
    const fields: Field[] = [];
    for (const part of this.meaningfulParts(s.allOf) as JsonObject[]) {
      if (typeof part.$ref === "string") {
        const base = this.component(part.$ref);
        if (base && !bases.includes(base)) bases.push(base);
      } else fields.push(...this.fieldsOf(part, hint));
    }
    this.addTypedDict(name, fields, bases, s.description);
  }

  private defineTypedDict(name: string, s: JsonObject, hint: string): void {
    this.addTypedDict(name, this.fieldsOf(s, hint), [], s.description);
  }

  /**
   * A TypedDict of `fields` on top of `bases`. Optional keys need `total=False` and Python 3.9 has no NotRequired, so
   * a shape with both kinds is a class of its optional keys over a base of its required ones. Keys that are no
   * identifier (`return`, `from`) need the functional syntax, which cannot inherit: such parts become bases.
   */
  private addTypedDict(name: string, fields: Field[], bases: string[], description?: string): void {
    const req = fields.filter((f) => f.required);
    const opt = fields.filter((f) => !f.required);
    const functional = fields.some((f) => !isIdentifier(f.key));
    const deps = [...bases];
    for (const f of fields) deps.push(...refsIn(f.type));
    const doc = description ? wrap(description, 96) : [];

    const fieldLines = (fs: Field[]) =>
      fs.flatMap((f) => [...comment(f.description, "    "), ...breakExpr(`    ${f.key}: `, resolveExpr(f.type, null), "", "    ")]);
    const functionalDict = (n: string, fs: Field[], total: boolean, defined: Set<string>) => {
      const lines = [`${n} = TypedDict(`, `    ${pyStr(n)},`, "    {"];
      for (const f of fs)
        lines.push(
          ...comment(f.description, "        "),
          ...breakExpr(`        ${pyStr(f.key)}: `, resolveExpr(f.type, defined), ",", "        "),
        );
      lines.push("    },");
      if (!total) lines.push("    total=False,");
      lines.push(")");
      return lines;
    };

    this.defs.set(name, {
      name,
      deps,
      render: (defined) => {
        const out: string[] = [];
        const classHead = (n: string, parents: string[], total: boolean) =>
          `class ${n}(${[...(parents.length ? parents : ["TypedDict"]), ...(total ? [] : ["total=False"])].join(", ")}):`;
        if (!functional) {
          if (req.length && opt.length) {
            const base = `_${name}Required`;
            out.push(classHead(base, bases, true), ...docstring([`The required keys of ${name}.`], "    "), ...fieldLines(req), "", "");
            out.push(classHead(name, [base], false), ...docstring(doc, "    "), ...fieldLines(opt));
          } else {
            const total = opt.length === 0;
            out.push(classHead(name, bases, total), ...docstring(doc, "    "), ...fieldLines(fields));
            if (fields.length === 0 && doc.length === 0) out.push("    pass");
          }
          return out;
        }
        // Functional parts, joined by a class over them (or the one part itself when there is nothing to join).
        const parts: string[] = [];
        if (bases.length === 0 && (req.length === 0 || opt.length === 0)) {
          return [...comment(description, ""), ...functionalDict(name, fields, opt.length === 0, defined)];
        }
        if (req.length) {
          out.push(...functionalDict(`_${name}Required`, req, true, defined), "", "");
          parts.push(`_${name}Required`);
        }
        if (opt.length) {
          out.push(...functionalDict(`_${name}Optional`, opt, false, defined), "", "");
          parts.push(`_${name}Optional`);
        }
        out.push(`class ${name}(${[...bases, ...parts].join(", ")}):`, ...docstring(doc.length ? doc : [name], "    "));
        return out;
      },
    });
  }

  /**
   * The Python type of a schema. `hint` names inline shapes (`<Parent><Property>`); `top` means the caller names the
   * schema itself (a component), so an object shape is defined under the hint rather than as a nested one.
   */
  typeOf(schema: Schema, hint: string, top = false): string {
    if (schema === undefined || schema === true) return "Any";
    if (schema === false) return "None";
    const s = schema;
    if (typeof s.$ref === "string") return this.componentType(s.$ref);
    if (Array.isArray(s.allOf)) {
      const parts = this.meaningfulParts(s.allOf);
      if (parts.length === 1) return this.nullable(s, this.typeOf(parts[0], hint));
      if (parts.length === 0) return "Any";
      if (this.objectAllOf(s)) {
        const name = top ? hint : this.newName(hint);
        if (!this.defs.has(name)) this.defineAllOf(name, s, name);
        return this.nullable(s, ref(name));
      }
      return "Dict[str, Any]";
    }
    const alternatives = s.oneOf ?? s.anyOf;
    if (Array.isArray(alternatives)) {
      const types: string[] = [];
      let nullable = this.isNullable(s);
      alternatives.forEach((alt: Schema, i: number) => {
        if (typeof alt === "object" && (alt.type === "null" || (alt.enum && alt.enum.length === 1 && alt.enum[0] === null))) {
          nullable = true;
          return;
        }
        const t = this.typeOf(alt, `${hint} ${this.variantName(alt, i)}`);
        if (t === "None") nullable = true;
        else if (!types.includes(t)) types.push(t);
      });
      let t = types.length === 0 ? "Any" : types.length === 1 ? (types[0] ?? "Any") : `Union[${types.join(", ")}]`;
      if (types.includes("Any")) t = "Any";
      return nullable && t !== "Any" ? `Optional[${t}]` : t;
    }
    if (Array.isArray(s.enum) && s.enum.length > 0) {
      const values = s.enum.filter((v: unknown) => v !== null && ["string", "number", "boolean"].includes(typeof v));
      const nullable = s.enum.includes(null) || this.isNullable(s);
      if (values.length === 0) return "None";
      const lit = `Literal[${values.map(pyLiteral).join(", ")}]`;
      return nullable ? `Optional[${lit}]` : lit;
    }
    if ("const" in s) return s.const === null ? "None" : `Literal[${pyLiteral(s.const)}]`;

    const declared: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : s.properties ? ["object"] : [];
    const nullable = declared.includes("null");
    const kinds = declared.filter((t) => t !== "null");
    if (kinds.length === 0) return nullable && declared.length ? "None" : "Any";
    if (kinds.length > 1) {
      if (kinds.length >= 5) return "Any";
      const ts = kinds.map((k) => this.typeOf({ ...s, type: k }, hint));
      const t = `Union[${ts.join(", ")}]`;
      return nullable ? `Optional[${t}]` : t;
    }
    let t: string;
    switch (kinds[0]) {
      case "string":
        t = "str";
        break;
      case "integer":
        t = "int";
        break;
      case "number":
        t = "float";
        break;
      case "boolean":
        t = "bool";
        break;
      case "array":
        t = `List[${this.typeOf(s.items, `${hint} Item`)}]`;
        break;
      case "object":
        if (s.properties && Object.keys(s.properties).length > 0) {
          const name = top ? hint : this.newName(hint);
          if (!this.defs.has(name)) this.defineTypedDict(name, s, name);
          t = ref(name);
        } else if (s.additionalProperties && typeof s.additionalProperties === "object") {
          t = `Dict[str, ${this.typeOf(s.additionalProperties, `${hint} Value`)}]`;
        } else t = "Dict[str, Any]";
        break;
      default:
        t = "Any";
    }
    return nullable ? `Optional[${t}]` : t;
  }

  private nullable(s: JsonObject, t: string): string {
    return this.isNullable(s) && t !== "Any" ? `Optional[${t}]` : t;
  }

  /** A oneOf variant's name: the one value of its discriminating property (`kind: "tier"` -> Tier), else OptionN. */
  private variantName(alt: Schema, i: number): string {
    if (typeof alt === "object" && alt.properties) {
      for (const key of ["type", "kind", ...Object.keys(alt.properties)]) {
        const p = alt.properties[key];
        if (p && Array.isArray(p.enum) && p.enum.length === 1 && typeof p.enum[0] === "string") return pascal(p.enum[0]);
        if (p && typeof p.const === "string") return pascal(p.const);
      }
    }
    return `Option${i + 1}`;
  }

  /** Every definition, dependencies first (document order otherwise), for names reachable from `roots`. */
  ordered(roots: string[]): TypeDef[] {
    const out: TypeDef[] = [];
    const state = new Map<string, "visiting" | "done">();
    const visit = (name: string) => {
      if (state.has(name)) return;
      const def = this.defs.get(name);
      if (!def) return;
      state.set(name, "visiting");
      for (const dep of def.deps) visit(dep);
      state.set(name, "done");
      out.push(def);
    };
    for (const root of roots) visit(root);
    for (const name of this.defs.keys()) visit(name);
    return out;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Operations

interface Param {
  name: string;
  py: string;
  location: "path" | "query" | "header";
  required: boolean;
  type: string;
  description?: string;
}

interface Operation {
  method: string;
  path: string;
  op: JsonObject;
  operationId: string;
  pyName: string;
  params: Param[];
  body?: { kind: "json" | "bytes"; contentType: string; required: boolean; type: string; description?: string };
  returns: string;
  paging?: Record<string, string>;
  scopes: string[];
}

function resolveParam(document: JsonObject, p: JsonObject): JsonObject | undefined {
  if (typeof p.$ref === "string") {
    const m = /^#\/components\/parameters\/(.+)$/.exec(p.$ref);
    return m?.[1] ? document.components?.parameters?.[m[1]] : undefined;
  }
  return p;
}

function jsonContent(content: JsonObject | undefined): [string, JsonObject] | undefined {
  if (!content) return undefined;
  const entry = Object.entries(content).find(([ct]) => ct === "application/json" || /^application\/[^;]*\+json/.test(ct));
  return entry as [string, JsonObject] | undefined;
}

/** The schema of the success answer's `data` (or the whole body when it has no envelope), per 2xx status. */
function successSchemas(
  types: TypeEmitter,
  op: JsonObject,
): { status: string; kind: "json" | "text" | "none"; schema?: Schema; enveloped: boolean }[] {
  const out: { status: string; kind: "json" | "text" | "none"; schema?: Schema; enveloped: boolean }[] = [];
  for (const [status, response] of Object.entries<JsonObject>(op.responses ?? {})) {
    if (!/^2/.test(status)) continue;
    const content = response?.content;
    if (!content || Object.keys(content).length === 0) {
      out.push({ status, kind: "none", enveloped: false });
      continue;
    }
    const json = jsonContent(content);
    if (!json) {
      out.push({ status, kind: "text", enveloped: false });
      continue;
    }
    const schema = json[1].schema;
    const resolved = types.resolve(schema);
    if (resolved?.properties?.data && resolved.properties.success) {
      out.push({ status, kind: "json", schema: resolved.properties.data, enveloped: true });
    } else out.push({ status, kind: "json", schema, enveloped: false });
  }
  return out;
}

function isListShaped(types: TypeEmitter, schema: Schema): boolean {
  const s = types.resolve(schema);
  return Boolean(s?.properties && Object.values(s.properties).some((p) => types.resolve(p as Schema)?.type === "array"));
}

function firstArrayKey(types: TypeEmitter, schema: Schema): string | undefined {
  const s = types.resolve(schema);
  if (!s?.properties) return undefined;
  return Object.entries(s.properties).find(([, p]) => types.resolve(p as Schema)?.type === "array")?.[0];
}

/**
 * The method's name from its HTTP method and path: `vendor_` for the vendor API, path words in snake_case with
 * a collection singular before its id, and a verb: `get_` (one item, or a document), `list_` (a list), `search_`/
 * `lookup_`, `create_` (POST to a collection), `put_`/`upload_` (PUT JSON/bytes), `update_` (PATCH), `delete_`, or
 * the action itself for POST `.../{id}/<action>` (`cancel_order`, `ship_vendor_order_line`).
 */
function methodName(method: string, path: string, requestIsBytes: boolean, listShaped: boolean): string {
  const root = API_ROOTS.find((r) => path.startsWith(`${r}/`))!;
  const segments = path
    .slice(root.length + 1)
    .split("/")
    .filter(Boolean);
  const isParam = (s: string) => /^\{.+\}$/.test(s);
  const pathWords: string[] = root === "/vendor/api" ? ["vendor"] : [];
  segments.forEach((s, i) => {
    if (isParam(s)) return;
    const w = snake(s);
    const next = segments[i + 1];
    pathWords.push(next !== undefined && isParam(next) ? singular(w) : w);
  });
  const last = segments[segments.length - 1] ?? "";
  const lastIsParam = isParam(last);
  const all = pathWords.join("_");
  const head = pathWords.slice(0, -1).join("_");
  const join = (...parts: string[]) => parts.filter(Boolean).join("_");
  switch (method) {
    case "get":
      if (lastIsParam) return join("get", all);
      if (last === "search" || last === "lookup") return join(last, head);
      return join(listShaped ? "list" : "get", all);
    case "delete":
      return join("delete", all);
    case "patch":
      return join("update", all);
    case "put":
      return join(requestIsBytes ? "upload" : "put", all);
    default: {
      if (lastIsParam) return join("post", all);
      const nounAction = NOUN_ACTIONS[last];
      if (nounAction) return nounAction.replace("{r}", head).replace(/__+/g, "_").replace(/^_|_$/g, "");
      if (/[^s]s$/.test(last)) return join("create", head, singular(snake(last)));
      return join(snake(last), head);
    }
  }
}

function pyParamName(name: string, taken: Set<string>): string {
  let py = snake(name) || "param";
  if (!/^[A-Za-z_]/.test(py)) py = `p_${py}`;
  while (PY_KEYWORDS.has(py) || RESERVED_ARGS.has(py) || taken.has(py)) py = `${py}_`;
  taken.add(py);
  return py;
}

function collectOperations(document: JsonObject, types: TypeEmitter): Operation[] {
  const raw: { method: string; path: string; op: JsonObject; name: string }[] = [];
  for (const [path, item] of Object.entries<JsonObject>(document.paths ?? {})) {
    if (!API_ROOTS.some((r) => path.startsWith(`${r}/`)) || SKIPPED_PATHS.has(path)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const content = op.requestBody?.content;
      const requestIsBytes = Boolean(content && !jsonContent(content));
      const success = successSchemas(types, op).find((r) => r.kind === "json");
      const name = methodName(method, path, requestIsBytes, Boolean(success && isListShaped(types, success.schema)));
      raw.push({ method, path, op, name });
    }
  }
  const counts = new Map<string, number>();
  for (const r of raw) counts.set(r.name, (counts.get(r.name) ?? 0) + 1);

  return raw.map(({ method, path, op, name }) => {
    const operationId: string = op.operationId ?? snake(`${method} ${path}`);
    const pyName = (counts.get(name) ?? 0) > 1 ? snake(operationId) : name;
    const typeHint = pascal(pyName);
    const taken = new Set<string>();
    const params: Param[] = [];
    const pathItemParams = document.paths[path].parameters ?? [];
    const seen = new Set<string>();
    for (const p0 of [...(op.parameters ?? []), ...pathItemParams]) {
      const p = resolveParam(document, p0);
      if (!p || !["path", "query", "header"].includes(p.in)) continue;
      if (p.in === "header" && CORE_HEADERS.has(String(p.name).toLowerCase())) continue;
      const key = `${p.in}:${p.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      params.push({
        name: p.name,
        py: pyParamName(p.name, taken),
        location: p.in,
        required: p.in === "path" || Boolean(p.required),
        type: types.typeOf(p.schema, `${typeHint} ${pascal(p.name)}`),
        description: p.description ?? p.schema?.description,
      });
    }
    // Path parameters in the order the path names them.
    const order = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    params.sort((a, b) => {
      if (a.location === "path" && b.location === "path") return order.indexOf(a.name) - order.indexOf(b.name);
      if (a.location === "path") return -1;
      if (b.location === "path") return 1;
      return 0;
    });

    let body: Operation["body"];
    const content = op.requestBody?.content;
    if (content && Object.keys(content).length) {
      const json = jsonContent(content);
      const required = Boolean(op.requestBody.required);
      if (json) {
        body = {
          kind: "json",
          contentType: "application/json",
          required,
          type: types.typeOf(json[1].schema, `${typeHint} Body`),
          description: op.requestBody.description,
        };
      } else {
        const contentType = Object.keys(content)[0] ?? "application/octet-stream";
        body = { kind: "bytes", contentType, required, type: "bytes", description: op.requestBody.description };
      }
    }

    const success = successSchemas(types, op);
    const returnTypes: string[] = [];
    for (const r of success) {
      const t = r.kind === "none" ? "None" : r.kind === "text" ? "str" : types.typeOf(r.schema, `${typeHint} Response`);
      if (!returnTypes.includes(t)) returnTypes.push(t);
    }
    const returns =
      returnTypes.length === 0 ? "Any" : returnTypes.length === 1 ? (returnTypes[0] ?? "Any") : `Union[${returnTypes.join(", ")}]`;

    // How its pages chain, for client.paginate().
    let paging: Record<string, string> | undefined;
    const data = success.find((r) => r.kind === "json")?.schema;
    const dataSchema = types.resolve(data);
    const itemsKey = firstArrayKey(types, data);
    const queryNames = new Set(params.filter((p) => p.location === "query").map((p) => p.name));
    if (itemsKey && dataSchema?.properties) {
      const props = dataSchema.properties;
      const bodySchema = body?.kind === "json" ? types.resolve(jsonContent(content)?.[1].schema) : undefined;
      const bodyPagination = types.resolve(bodySchema?.properties?.pagination);
      if (props.pagination && queryNames.has("offset")) paging = { style: "offset", location: "query", items: itemsKey };
      else if (props.pagination && bodyPagination?.properties?.offset) paging = { style: "offset", location: "body", items: itemsKey };
      else if (queryNames.has("after") && props.nextCursor) {
        paging = { style: "cursor", param: "after", next: "nextCursor", items: itemsKey, ...(props.hasMore ? { hasMore: "hasMore" } : {}) };
      } else if (queryNames.has("cursor") && (props.nextCursor || props.cursor)) {
        paging = { style: "cursor", param: "cursor", next: props.nextCursor ? "nextCursor" : "cursor", items: itemsKey };
      } else if (pyName.startsWith("list_")) paging = { style: "single", items: itemsKey }; // a list of one page
    }

    const scopes: string[] = [];
    for (const requirement of op.security ?? document.security ?? []) {
      for (const list of Object.values<string[]>(requirement)) for (const s of list) if (!scopes.includes(s)) scopes.push(s);
    }
    return { method, path, op, operationId, pyName, params, body, returns, paging, scopes };
  });
}

function renderOperation(o: Operation): string[] {
  const lines: string[] = [];
  const pathParams = o.params.filter((p) => p.location === "path");
  const otherParams = o.params.filter((p) => p.location !== "path");
  /** [name and colon, type, default] of each argument; "*" alone marks the keyword-only ones. */
  type Arg = [string, string, string];
  const args: Arg[] = [["self", "", ""]];
  for (const p of pathParams) args.push([`${p.py}: `, resolveExpr(p.type, null), ""]);
  const requiredOthers = otherParams.filter((p) => p.required);
  const optionalOthers = otherParams.filter((p) => !p.required);
  if (o.body) {
    const t = resolveExpr(o.body.type, null);
    const name = o.body.kind === "json" ? "body" : "content";
    args.push(o.body.required ? [`${name}: `, t, ""] : [`${name}: `, `Optional[${t}]`, " = None"]);
  }
  const kwargs: Arg[] = [];
  for (const p of requiredOthers) kwargs.push([`${p.py}: `, resolveExpr(p.type, null), ""]);
  for (const p of optionalOthers) kwargs.push([`${p.py}: `, `Optional[${resolveExpr(p.type, null)}]`, " = None"]);
  if (WRITE_METHODS.has(o.method)) kwargs.push(["idempotency_key: ", "Optional[str]", " = None"]);
  const all: Arg[] = kwargs.length ? [...args, ["*", "", ""], ...kwargs] : args;
  const returns = resolveExpr(o.returns, null);
  const oneLine = `    def ${o.pyName}(${all.map((a) => a.join("")).join(", ")}) -> ${returns}:`;
  if (oneLine.length <= 120) lines.push(oneLine);
  else {
    lines.push(`    def ${o.pyName}(`);
    for (const [head, type, tail] of all)
      lines.push(...(type ? breakExpr(`        ${head}`, type, `${tail},`, "        ") : [`        ${head},`]));
    lines.push(...breakExpr("    ) -> ", returns, ":", "    "));
  }

  // Docstring.
  const doc: string[] = [];
  const summary = (o.op.summary ?? "").trim() || `${o.method.toUpperCase()} ${o.path}`;
  doc.push(summary.endsWith(".") ? summary : `${summary}.`, "");
  const where = `\`\`${o.method.toUpperCase()} ${o.path}\`\` (operationId \`\`${o.operationId}\`\`${o.scopes.length ? `, scope ${o.scopes.map((s) => `\`\`${s}\`\``).join(" or ")}` : ""}).`;
  doc.push(...wrap(where, 100));
  if (o.op.description) doc.push("", ...wrap(o.op.description, 100));
  const argDocs: string[] = [];
  for (const p of o.params) {
    const d = p.description ? wrap(p.description, 90) : [];
    argDocs.push(`    ${p.py}: ${d[0] ?? `the \`\`${p.name}\`\` ${p.location} parameter.`}`, ...d.slice(1).map((l) => `        ${l}`));
  }
  if (o.body) {
    const what = o.body.kind === "json" ? "The JSON request body." : `The raw request body, sent as \`\`${o.body.contentType}\`\`.`;
    argDocs.push(`    ${o.body.kind === "json" ? "body" : "content"}: ${what}`);
  }
  if (WRITE_METHODS.has(o.method))
    argDocs.push("    idempotency_key: The Idempotency-Key (a UUID); a new one when None, reused by every retry.");
  if (argDocs.length) doc.push("", "Args:", ...argDocs);
  if (o.paging && o.paging.style !== "single") doc.push("", `Every item of every page: \`\`client.paginate(client.${o.pyName}, ...)\`\`.`);
  lines.push(...docstring(doc, "        "));

  // Body.
  const segments = o.path.split(/(\{[^}]+\})/).filter(Boolean);
  const pathExpr = segments
    .map((s) => {
      const m = /^\{(.+)\}$/.exec(s);
      if (!m) return pyStr(s);
      const p = pathParams.find((x) => x.name === m[1]);
      return p ? `_segment(${p.py})` : pyStr(s);
    })
    .join(" + ");
  const call: string[] = [`${pyStr(o.method.toUpperCase())}`, pathExpr];
  const query = otherParams.filter((p) => p.location === "query");
  const headers = otherParams.filter((p) => p.location === "header");
  const dict = (name: string, ps: Param[]) => {
    const flat = `${name}={${ps.map((p) => `${pyStr(p.name)}: ${p.py}`).join(", ")}}`;
    return flat.length <= 100
      ? flat
      : `${name}={\n${ps.map((p) => `                ${pyStr(p.name)}: ${p.py},`).join("\n")}\n            }`;
  };
  if (query.length) call.push(dict("params", query));
  if (headers.length) call.push(dict("headers", headers));
  if (o.body?.kind === "json") call.push("json=body");
  if (o.body?.kind === "bytes") call.push("content=content", `content_type=${pyStr(o.body.contentType)}`);
  if (WRITE_METHODS.has(o.method)) call.push("idempotency_key=idempotency_key");
  const single = `        return self.request(${call.join(", ")})`;
  if (single.length <= 120) lines.push(single);
  else lines.push("        return self.request(", ...call.map((c) => `            ${c},`), "        )");
  if (o.paging) {
    const entries = Object.entries(o.paging).map(([k, v]) => `${pyStr(k)}: ${pyStr(v)}`);
    const flat = `    ${o.pyName}.paging = {${entries.join(", ")}}  # type: ignore[attr-defined]`;
    if (flat.length <= 120) lines.push("", flat);
    else lines.push("", `    ${o.pyName}.paging = {  # type: ignore[attr-defined]`, ...entries.map((e) => `        ${e},`), "    }");
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------------------------

/** Each operation's Python method and its parameters' Python names, by operationId: what the generated module calls them. */
export function pythonNames(document: Record<string, Json>): Record<string, { method: string; params: Record<string, string> }> {
  const operations = collectOperations(document, new TypeEmitter(document));
  return Object.fromEntries(
    operations.map((o) => [
      o.operationId,
      { method: o.pyName, params: Object.fromEntries(o.params.map((param) => [param.name, param.py])) },
    ]),
  );
}

export function pythonOperations(document: Record<string, Json>): string {
  const version = String(document.info?.version ?? "unknown");
  const types = new TypeEmitter(document);
  const operations = collectOperations(document, types);

  const out: string[] = [];
  out.push(
    `# Generated from the Medparts OpenAPI document, API version ${version}, by \`npm run sdk:generate\`.`,
    "# Do not edit: change the generator or the API's contract and generate again.",
    `"""Typed operations of the Medparts customer and vendor APIs (version ${version}).`,
    "",
    "Each method of ``Operations`` is one operation; ``medparts.Medparts`` inherits them. The TypedDicts describe the",
    "request bodies and the ``data`` of the answers (keys that may be absent are in ``total=False`` classes).",
    '"""',
    "",
    "from __future__ import annotations",
    "",
    "from typing import Any, Dict, List, Literal, Optional, Tuple, TypedDict, Union",
    "from urllib.parse import quote",
    "",
    `API_VERSION = ${pyStr(version)}`,
    '"""The API version these operations and types describe; the client sends it as ``Medparts-Version``."""',
    "",
    "",
  );

  // Types, dependencies first.
  const defined = new Set<string>();
  const typeNames: string[] = [];
  for (const def of types.ordered([])) {
    out.push(...def.render(defined), "", "");
    defined.add(def.name);
    if (!def.name.startsWith("_")) typeNames.push(def.name);
  }

  out.push(
    "def _segment(value: Any) -> str:",
    '    """A path parameter, percent-encoded as one path segment."""',
    '    return quote(str(value), safe="")',
    "",
    "",
    "class Operations:",
    ...docstring(
      [
        `Every operation of the customer and vendor APIs (version ${version}) as a method.`,
        "",
        "Customer operations need a buyer client, ``vendor_*`` ones a vendor client. Each returns the answer's",
        "``data``; the client's ``last_response`` has its status and headers.",
      ],
      "    ",
    ),
    "",
    "    def request(",
    "        self,",
    "        method: str,",
    "        path: str,",
    "        *,",
    "        params: Optional[Dict[str, Any]] = None,",
    "        json: Any = None,",
    "        idempotency_key: Optional[str] = None,",
    "        content: Optional[bytes] = None,",
    "        content_type: Optional[str] = None,",
    "        headers: Optional[Dict[str, str]] = None,",
    "    ) -> Any:",
    '        """Sends one request; implemented by the client (``medparts.Medparts``)."""',
    "        raise NotImplementedError",
  );
  for (const o of operations) out.push("", ...renderOperation(o));
  out.push("", "");

  out.push(
    "OPERATIONS: Dict[str, Tuple[str, str, str]] = {",
    "    # operationId: (HTTP method, path, method of Operations)",
    ...operations.flatMap((o) => {
      const flat = `    ${pyStr(o.operationId)}: (${pyStr(o.method.toUpperCase())}, ${pyStr(o.path)}, ${pyStr(o.pyName)}),`;
      return flat.length <= 120
        ? [flat]
        : [
            `    ${pyStr(o.operationId)}: (`,
            `        ${pyStr(o.method.toUpperCase())},`,
            `        ${pyStr(o.path)},`,
            `        ${pyStr(o.pyName)},`,
            "    ),",
          ];
    }),
    "}",
    "",
    "# The POSTs and PATCHes the API deduplicates by Idempotency-Key: the only ones sent again after a failure that leaves",
    "# unknown whether the first was applied (a network error, a timeout, a 5xx). GET, PUT and DELETE are safe to resend.",
    "KEYED_WRITES: Tuple[Tuple[str, str], ...] = (",
    ...keyedWrites(document).map((write) => {
      const [method, path] = write.split(" ") as [string, string];
      return `    (${pyStr(method)}, ${pyStr(path)}),`;
    }),
    ")",
    "",
    "__all__ = [",
    '    "API_VERSION",',
    '    "KEYED_WRITES",',
    '    "OPERATIONS",',
    '    "Operations",',
    ...[...typeNames].sort().map((n) => `    ${pyStr(n)},`),
    "]",
    "",
  );
  return out.join("\n").replace(/[ \t]+$/gm, "");
}
