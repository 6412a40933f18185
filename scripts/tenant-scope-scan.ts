// Tenant scope scan (issue 20 item 5): every write or row lock on a tenant table (a table with an
// `org_id` column in server/db/schema.ts) must name the organization in its own WHERE clause —
// `where org_id = … and id = …` — not rely on an earlier scoped read of the same id. Repository
// reads that are not scoped (sweeps, platform screens, token look-ups) say so in their name: an
// exported function of a `*.repo.ts` file that reads a tenant table without `org_id` ends in
// `AnyOrg`.
//
// The scan parses the code with the TypeScript compiler API:
//   - drizzle chains: `x.update(table)…where(p)`, `x.delete(table)…where(p)`,
//     `x.select(…).from(table)…where(p)…for('update')`, and (reads) `x.select(…).from(table)…`;
//     `p` must hold `eq(table.orgId, …)` as a conjunct (directly, inside `and(…)`, through a local
//     variable, a spread array or a function of the same file), or a `sql` template with
//     `${table.orgId} =` and no `or`;
//   - SQL text (template literals and strings, with `${table}`/`${table.column}` rendered as SQL):
//     `update <table> … set … where …`, `delete from <table> … where …` and `select … from <table>
//     … for update|share` must have `[alias.]org_id =` in their own WHERE (outside subqueries).
// Run `npx tsx scripts/tenant-scope-scan.ts` for the list; server/db/tenant-scope-scan.test.ts
// fails on any finding outside ALLOW_LIST and on any stale ALLOW_LIST entry.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export type TenantTable = { name: string; sqlName: string; orgIdProp: string; columns: Map<string, string> };

export type FindingKind = 'update' | 'delete' | 'lock' | 'read';

export type Finding = {
  file: string;
  line: number;
  /** The nearest named function around the statement (`<module>` at the top level). */
  fn: string;
  /** The function declared at the top of the file around it (what callers see), else `fn`. */
  topFn: string;
  table: string;
  kind: FindingKind;
  via: 'drizzle' | 'sql';
  reason: string;
};

/** Every write, lock and repository read the scan looked at, scoped or not (for the counts). */
export type Checked = Finding & { scoped: boolean };

/** `file` is the file's name (not its folder), so a file moved to another folder keeps its entries. */
export type AllowEntry = { file: string; fn: string; table: string; kind: FindingKind };

export const ROOT = path.resolve(import.meta.dirname, '..');
export const SCHEMA_FILE = 'server/db/schema.ts';

// ---------------------------------------------------------------------------------------------
// Tenant tables, read from the schema

/** Tables declared with `pgTable('name', { … orgId: uuid('org_id') … })`, by their export name. */
export function readTenantTables(schemaSource: string): Map<string, TenantTable> {
  const source = ts.createSourceFile(SCHEMA_FILE, schemaSource, ts.ScriptTarget.Latest, true);
  const tables = new Map<string, TenantTable>();
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const decl of statement.declarationList.declarations) {
      const init = decl.initializer;
      if (!ts.isIdentifier(decl.name) || !init || !ts.isCallExpression(init)) continue;
      if (!ts.isIdentifier(init.expression) || init.expression.text !== 'pgTable') continue;
      const [nameArg, columnsArg] = init.arguments;
      if (!nameArg || !ts.isStringLiteral(nameArg) || !columnsArg || !ts.isObjectLiteralExpression(columnsArg)) continue;
      const columns = new Map<string, string>();
      let orgIdProp: string | undefined;
      for (const prop of columnsArg.properties) {
        if (!ts.isPropertyAssignment(prop) || !(ts.isIdentifier(prop.name) || ts.isStringLiteral(prop.name))) continue;
        const column = rootColumnName(prop.initializer);
        if (!column) continue;
        columns.set(prop.name.text, column);
        if (column === 'org_id') orgIdProp = prop.name.text;
      }
      if (orgIdProp) tables.set(decl.name.text, { name: decl.name.text, sqlName: nameArg.text, orgIdProp, columns });
    }
  }
  return tables;
}

/** `uuid('org_id').notNull().references(…)` → 'org_id' (the first string argument of the chain's root call). */
function rootColumnName(expr: ts.Expression): string | undefined {
  let node: ts.Expression = expr;
  for (;;) {
    if (ts.isCallExpression(node)) {
      if (ts.isPropertyAccessExpression(node.expression)) {
        node = node.expression.expression;
        continue;
      }
      const [first] = node.arguments;
      return first && ts.isStringLiteral(first) ? first.text : undefined;
    }
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Per-file context: which identifiers are tenant tables

type FileContext = {
  file: string;
  source: ts.SourceFile;
  tables: Map<string, TenantTable>;
  /** Local identifier → table export name (named imports, aliases included). */
  imported: Map<string, string>;
  /** Namespace imports of the schema (`import * as schema`). */
  namespaces: Set<string>;
};

function isSchemaImport(file: string, specifier: string): boolean {
  if (!specifier.startsWith('.')) return false;
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
  return resolved === SCHEMA_FILE.replace(/\.ts$/, '') || resolved === SCHEMA_FILE;
}

function fileContext(file: string, text: string, tables: Map<string, TenantTable>): FileContext {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const imported = new Map<string, string>();
  const namespaces = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!isSchemaImport(file, statement.moduleSpecifier.text)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings) continue;
    if (ts.isNamespaceImport(bindings)) namespaces.add(bindings.name.text);
    else for (const element of bindings.elements) imported.set(element.name.text, (element.propertyName ?? element.name).text);
  }
  return { file, source, tables, imported, namespaces };
}

/** The tenant table an expression names (`bookings`, `b` for `bookings as b`, `schema.bookings`). */
function tableOf(ctx: FileContext, expr: ts.Expression): TenantTable | undefined {
  const node = unwrap(expr);
  if (ts.isIdentifier(node)) {
    const name = ctx.imported.get(node.text);
    return name ? ctx.tables.get(name) : undefined;
  }
  if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && ctx.namespaces.has(node.expression.text)) {
    return ctx.tables.get(node.name.text);
  }
  return undefined;
}

/** Any table of the schema (tenant or not), by its import. */
function isSchemaTable(ctx: FileContext, expr: ts.Expression): boolean {
  const node = unwrap(expr);
  if (ts.isIdentifier(node)) return ctx.imported.has(node.text);
  return ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && ctx.namespaces.has(node.expression.text);
}

const UNKNOWN_TABLE: TenantTable = { name: '?', sqlName: '?', orgIdProp: 'orgId', columns: new Map() };

function unwrap(expr: ts.Expression): ts.Expression {
  let node = expr;
  while (ts.isParenthesizedExpression(node) || ts.isNonNullExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) {
    node = node.expression;
  }
  return node;
}

// ---------------------------------------------------------------------------------------------
// Is a drizzle predicate scoped to the organization?

/** `table.orgId` for this very table. */
function isOrgIdColumn(ctx: FileContext, expr: ts.Expression, table: TenantTable): boolean {
  const node = unwrap(expr);
  return ts.isPropertyAccessExpression(node) && node.name.text === table.orgIdProp && tableOf(ctx, node.expression)?.name === table.name;
}

function calleeName(call: ts.CallExpression): string | undefined {
  const callee = unwrap(call.expression);
  return ts.isIdentifier(callee) ? callee.text : undefined;
}

/**
 * True when `expr` restricts rows of `table` to one organization: `eq(table.orgId, x)`, an `and(…)`
 * with such a conjunct, a `sql` template `${table.orgId} = …` without `or`, or a name (local
 * variable, same-file function) that stands for one of these. `or(…)` never counts.
 */
function isScoped(ctx: FileContext, expr: ts.Expression, table: TenantTable, depth = 0): boolean {
  if (depth > 8) return false;
  const node = unwrap(expr);
  if (ts.isCallExpression(node)) {
    const name = calleeName(node);
    if (name === 'eq') return node.arguments.some((arg) => isOrgIdColumn(ctx, arg, table));
    if (name === 'and') {
      return node.arguments.some((arg) =>
        ts.isSpreadElement(arg) ? isScopedArray(ctx, arg.expression, table, depth + 1) : isScoped(ctx, arg, table, depth + 1),
      );
    }
    if (name) {
      const returned = returnsOf(ctx, node, name);
      return returned.length > 0 && returned.every((ret) => isScoped(ctx, ret, table, depth + 1));
    }
    return false;
  }
  if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && node.tag.text === 'sql') {
    const template = node.template;
    if (!ts.isTemplateExpression(template)) return false;
    const texts = [template.head.text, ...template.templateSpans.map((span) => span.literal.text)].join(' ');
    if (/\bor\b/i.test(texts)) return false;
    return template.templateSpans.some((span) => isOrgIdColumn(ctx, span.expression, table) && /^\s*=/.test(span.literal.text));
  }
  if (ts.isIdentifier(node)) {
    const fromInit = initializersOf(node).some((init) =>
      ts.isArrayLiteralExpression(unwrap(init)) ? isScopedArray(ctx, init, table, depth + 1) : isScoped(ctx, init, table, depth + 1),
    );
    if (fromInit) return true;
    const args = argumentsFor(ctx, node);
    return !!args?.length && args.every((arg) => isScoped(ctx, arg, table, depth + 1));
  }
  return false;
}

/** An array of conditions (spread into `and`) holding a scoped one. */
function isScopedArray(ctx: FileContext, expr: ts.Expression, table: TenantTable, depth: number): boolean {
  if (depth > 8) return false;
  const node = unwrap(expr);
  if (ts.isArrayLiteralExpression(node)) {
    return node.elements.some((element) =>
      ts.isSpreadElement(element) ? isScopedArray(ctx, element.expression, table, depth + 1) : isScoped(ctx, element, table, depth + 1),
    );
  }
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
    const returned = returnsOf(ctx, node, node.expression.text);
    return returned.length > 0 && returned.every((ret) => isScopedArray(ctx, ret, table, depth + 1));
  }
  if (ts.isIdentifier(node)) {
    if (initializersOf(node).some((init) => isScopedArray(ctx, init, table, depth + 1))) return true;
    const args = argumentsFor(ctx, node);
    return !!args?.length && args.every((arg) => isScopedArray(ctx, arg, table, depth + 1));
  }
  return false;
}

/**
 * When `name` is a parameter of a function of this file that is not exported, the arguments every
 * call in the file passes for it (the scan sees all callers); otherwise undefined.
 */
function argumentsFor(ctx: FileContext, name: ts.Identifier): ts.Expression[] | undefined {
  for (let node: ts.Node | undefined = name.parent; node; node = node.parent) {
    if (!ts.isFunctionLike(node)) continue;
    const index = node.parameters.findIndex((p) => ts.isIdentifier(p.name) && p.name.text === name.text);
    if (index < 0) continue;
    const fn = functionName(node);
    if (!fn || fn.exported) return undefined;
    const calls = callSitesOf(ctx, fn.name);
    if (!calls.length || calls.some((call) => call.arguments.slice(0, index + 1).some(ts.isSpreadElement))) return undefined;
    return calls.map((call) => call.arguments[index]).filter((arg): arg is ts.Expression => !!arg);
  }
  return undefined;
}

/** The name of a function declared at the top of its file (`function f` or `const f = () =>`), and whether it is exported. */
function functionName(fn: ts.SignatureDeclaration): { name: string; exported: boolean } | undefined {
  const isExported = (node: ts.Node) => !!ts.canHaveModifiers(node) && !!ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  if (ts.isFunctionDeclaration(fn) && fn.name && ts.isSourceFile(fn.parent)) return { name: fn.name.text, exported: isExported(fn) };
  if ((ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && ts.isVariableDeclaration(fn.parent) && ts.isIdentifier(fn.parent.name)) {
    const statement = fn.parent.parent.parent;
    if (ts.isVariableStatement(statement) && ts.isSourceFile(statement.parent)) return { name: fn.parent.name.text, exported: isExported(statement) };
  }
  return undefined;
}

function callSitesOf(ctx: FileContext, name: string): ts.CallExpression[] {
  const calls: ts.CallExpression[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === name) calls.push(node);
    ts.forEachChild(node, visit);
  };
  visit(ctx.source);
  return calls;
}

/** Initializers of the variables (in enclosing blocks, then the file) that `name` may refer to. */
function initializersOf(name: ts.Identifier): ts.Expression[] {
  for (let scope: ts.Node | undefined = name.parent; scope; scope = scope.parent) {
    if (!(ts.isBlock(scope) || ts.isSourceFile(scope) || ts.isModuleBlock(scope))) continue;
    const found: ts.Expression[] = [];
    for (const statement of scope.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const decl of statement.declarationList.declarations) {
        if (ts.isIdentifier(decl.name) && decl.name.text === name.text && decl.initializer) found.push(decl.initializer);
      }
    }
    if (found.length) return found;
  }
  return [];
}

/** What a same-file function called `name` returns (the argument-free view: its return expressions). */
function returnsOf(ctx: FileContext, _call: ts.CallExpression, name: string): ts.Expression[] {
  const results: ts.Expression[] = [];
  const collect = (body: ts.ConciseBody) => {
    if (!ts.isBlock(body)) {
      results.push(body);
      return;
    }
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node)) return;
      if (ts.isReturnStatement(node) && node.expression) results.push(node.expression);
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(body, visit);
  };
  for (const statement of ctx.source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name?.text === name && statement.body) collect(statement.body);
    if (ts.isVariableStatement(statement)) {
      for (const decl of statement.declarationList.declarations) {
        const init = decl.initializer && unwrap(decl.initializer);
        if (ts.isIdentifier(decl.name) && decl.name.text === name && init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) {
          collect(init.body);
        }
      }
    }
  }
  return results;
}

// ---------------------------------------------------------------------------------------------
// Drizzle chains

type ChainCall = { method: string; args: readonly ts.Expression[]; call: ts.CallExpression };

/** The calls chained after `call`: `call.set(…).where(…).returning()` → set, where, returning. */
function callsAfter(call: ts.CallExpression): ChainCall[] {
  const calls: ChainCall[] = [];
  let node: ts.Node = call;
  for (;;) {
    const access = node.parent;
    if (!access || !ts.isPropertyAccessExpression(access) || access.expression !== node) break;
    const next = access.parent;
    if (!next || !ts.isCallExpression(next) || next.expression !== access) break;
    calls.push({ method: access.name.text, args: next.arguments, call: next });
    node = next;
  }
  return calls;
}

/** The calls chained before `call`, innermost last: `db.select().from(t).where(p).for(…)` → where, from, select. */
function callsBefore(ctx: FileContext, call: ts.CallExpression): ChainCall[] {
  const calls: ChainCall[] = [];
  let node: ts.Expression = call.expression;
  for (let hops = 0; ts.isPropertyAccessExpression(node) && hops < 50; hops++) {
    let receiver = unwrap(node.expression);
    // `const query = db.select()…; query.for('update')`: follow the variable to its chain.
    if (ts.isIdentifier(receiver)) {
      const [init] = initializersOf(receiver);
      if (!init) break;
      receiver = unwrap(init);
    }
    // `viewQuery(db).where(p)`: follow a query-building function of this file to what it returns.
    if (ts.isCallExpression(receiver) && ts.isIdentifier(receiver.expression)) {
      const [returned] = returnsOf(ctx, receiver, receiver.expression.text);
      if (!returned) break;
      receiver = unwrap(returned);
    }
    if (!ts.isCallExpression(receiver) || !ts.isPropertyAccessExpression(receiver.expression)) break;
    calls.push({ method: receiver.expression.name.text, args: receiver.arguments, call: receiver });
    node = receiver.expression;
  }
  return calls;
}

/**
 * The calls chained after `call`, continued through a query-building function of the same file
 * (`function itemQuery(db) { return db.select()…from(t)…; }` then `itemQuery(db).where(p)`): one
 * chain per call site (and that site), when the builder has no where of its own; an exported
 * builder is judged as it is (its callers are elsewhere).
 */
function continuedChains(ctx: FileContext, call: ts.CallExpression, depth = 0): { chain: ChainCall[]; site: ts.CallExpression }[] {
  const after = callsAfter(call);
  const end = after.at(-1)?.call ?? call;
  const holder = end.parent;
  const fn =
    holder && ts.isReturnStatement(holder)
      ? (ts.findAncestor(holder, ts.isFunctionLike) as ts.SignatureDeclaration | undefined)
      : holder && ts.isArrowFunction(holder) && holder.body === end
        ? holder
        : undefined;
  if (!fn || depth > 4 || after.some((c) => c.method === 'where')) return [{ chain: after, site: call }];
  const named = functionName(fn);
  if (!named || named.exported) return [{ chain: after, site: call }];
  const sites = callSitesOf(ctx, named.name);
  if (!sites.length) return [{ chain: after, site: call }];
  return sites.flatMap((site) => continuedChains(ctx, site, depth + 1).map((rest) => ({ chain: [...after, ...rest.chain], site: rest.site })));
}

const LOCK_STRENGTHS = new Set(['update', 'no key update', 'share', 'key share']);
const JOINS = new Set(['innerJoin', 'leftJoin', 'rightJoin', 'fullJoin', 'crossJoin']);

function drizzleFindings(ctx: FileContext, add: (node: ts.Node, table: TenantTable, kind: FindingKind, scoped: boolean, reason: string) => void) {
  const isRepo = ctx.file.endsWith('.repo.ts');
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const [first] = node.arguments;
      // x.update(table) / x.delete(table)
      if ((method === 'update' || method === 'delete') && node.arguments.length === 1 && first) {
        const table = tableOf(ctx, first);
        if (table) {
          const wheres = callsAfter(node).filter((c) => c.method === 'where');
          const scoped = wheres.some((w) => w.args[0] && isScoped(ctx, w.args[0], table));
          add(node, table, method, scoped, wheres.length ? `where without eq(${table.name}.${table.orgIdProp}, …)` : 'no where at all');
        }
      }
      // ….from(table)….where(p)….for('update')
      if (method === 'for' && first && ts.isStringLiteralLike(first) && LOCK_STRENGTHS.has(first.text)) {
        const before = callsBefore(ctx, node);
        const from = before.find((c) => c.method === 'from');
        const table = from?.args[0] && tableOf(ctx, from.args[0]);
        // A lock whose table the scan cannot name is reported, never skipped (other schema tables are not tenant tables).
        if (!from?.args[0] || (!table && !isSchemaTable(ctx, from.args[0]))) add(node, UNKNOWN_TABLE, 'lock', false, 'row lock on a table the scan cannot name');
        if (table) {
          const wheres = before.filter((c) => c.method === 'where');
          const scoped = wheres.some((w) => w.args[0] && isScoped(ctx, w.args[0], table));
          add(node, table, 'lock', scoped, `for('${first.text}') without eq(${table.name}.${table.orgIdProp}, …)`);
        }
      }
      // Repository reads: x.select(…).from(table)… (scoped on any tenant table of the query).
      if (isRepo && method === 'from' && first) {
        const table = tableOf(ctx, first);
        const root = callsBefore(ctx, node).at(-1);
        const locked = callsAfter(node).some((c) => c.method === 'for');
        if (table && !locked && root && /^select/.test(root.method)) {
          // Through a query builder, each use is judged (and named) where it is.
          for (const { chain, site } of continuedChains(ctx, node)) {
            const tablesInQuery = [table, ...chain.filter((c) => JOINS.has(c.method) && c.args[0]).map((c) => tableOf(ctx, c.args[0]!))].filter(
              (t): t is TenantTable => !!t,
            );
            const scoped = chain.some((w) => w.method === 'where' && w.args[0] && tablesInQuery.some((t) => isScoped(ctx, w.args[0]!, t)));
            add(site, table, 'read', scoped, 'read without org_id');
          }
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(ctx.source);
}

// ---------------------------------------------------------------------------------------------
// SQL text

/** The text of a template or string, `${table}` and `${table.column}` rendered as SQL, other values as `$n`. */
function renderSql(ctx: FileContext, node: ts.TemplateLiteral | ts.StringLiteral): string {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  let text = node.head.text;
  node.templateSpans.forEach((span, index) => {
    text += renderValue(ctx, span.expression, index + 1) + span.literal.text;
  });
  return text;
}

function renderValue(ctx: FileContext, expr: ts.Expression, index: number): string {
  const node = unwrap(expr);
  const table = tableOf(ctx, node);
  if (table) return table.sqlName;
  if (ts.isPropertyAccessExpression(node)) {
    const owner = tableOf(ctx, node.expression);
    const column = owner?.columns.get(node.name.text);
    if (owner && column) return `${owner.sqlName}.${column}`;
  }
  // Nested sql`…` fragments (a condition's branches: the longer one) are part of the statement.
  if (ts.isTaggedTemplateExpression(node)) return renderSql(ctx, node.template);
  if (ts.isConditionalExpression(node)) {
    const [a, b] = [renderValue(ctx, node.whenTrue, index), renderValue(ctx, node.whenFalse, index)];
    return a.length >= b.length ? a : b;
  }
  return `$${index}`;
}

/** Removes `-- …` comments and the inside of parenthesised subqueries `(select …)` (replaced by `(…)`). */
function withoutSubqueries(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] === '(' && /^\(\s*(select|with)\b/i.test(text.slice(i))) {
      let depth = 0;
      let j = i;
      for (; j < text.length; j++) {
        if (text[j] === '(') depth++;
        else if (text[j] === ')' && --depth === 0) break;
      }
      out += '(…)';
      i = j + 1;
      continue;
    }
    out += text[i];
    i++;
  }
  return out;
}

/** From `start`, the rest of the statement at this parenthesis depth (to `;` or the closing parenthesis). */
function statementFrom(text: string, start: number): string {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) return text.slice(start, i);
      depth--;
    } else if (c === ';' && depth === 0) return text.slice(start, i);
  }
  return text.slice(start);
}

/** Back from `end`, the start of the statement at this depth (after `(` or `;`). */
function statementStart(text: string, end: number): number {
  let depth = 0;
  for (let i = end - 1; i >= 0; i--) {
    const c = text[i];
    if (c === ')') depth++;
    else if (c === '(') {
      if (depth === 0) return i + 1;
      depth--;
    } else if (c === ';' && depth === 0) return i + 1;
  }
  return 0;
}

const IDENT = '"?([a-z_][a-z0-9_]*)"?';
const ALIAS = `(?:\\s+(?:as\\s+)?(?!set\\b|where\\b|using\\b|returning\\b|for\\b|join\\b|inner\\b|left\\b|on\\b|limit\\b|order\\b)([a-z_][a-z0-9_]*))?`;

/** `where` of a flattened statement mentions `[alias.]org_id =` (or `= [alias.]org_id`). */
function whereHasOrgId(statement: string, names: string[]): boolean {
  const flat = withoutSubqueries(statement);
  const where = /\bwhere\b([\s\S]*)$/i.exec(flat)?.[1];
  if (!where) return false;
  const qualifier = `(?:(?:${names.map((n) => `"?${n}"?`).join('|')})\\.)?`;
  const column = `${qualifier}"?org_id"?`;
  return new RegExp(`${column}\\s*=|=\\s*${column}\\b`, 'i').test(where);
}

function sqlFindings(ctx: FileContext, add: (node: ts.Node, table: TenantTable, kind: FindingKind, scoped: boolean, reason: string) => void) {
  const bySqlName = new Map([...ctx.tables.values()].map((t) => [t.sqlName, t]));
  const check = (node: ts.TemplateLiteral | ts.StringLiteral) => {
    const text = renderSql(ctx, node).replace(/--[^\n]*/g, ' ');
    for (const match of text.matchAll(new RegExp(`\\bupdate\\s+(?:only\\s+)?${IDENT}${ALIAS}\\s+set\\b`, 'gi'))) {
      const table = bySqlName.get(match[1]!.toLowerCase());
      if (!table) continue;
      const statement = statementFrom(text, match.index);
      const scoped = whereHasOrgId(statement, [table.sqlName, match[2] ?? table.sqlName]);
      add(node, table, 'update', scoped, 'SQL update without org_id in its where');
    }
    for (const match of text.matchAll(new RegExp(`\\bdelete\\s+from\\s+(?:only\\s+)?${IDENT}${ALIAS}`, 'gi'))) {
      const table = bySqlName.get(match[1]!.toLowerCase());
      if (!table) continue;
      const statement = statementFrom(text, match.index);
      const scoped = whereHasOrgId(statement, [table.sqlName, match[2] ?? table.sqlName]);
      add(node, table, 'delete', scoped, 'SQL delete without org_id in its where');
    }
    for (const match of text.matchAll(/\bfor\s+(?:no\s+key\s+update|key\s+share|update|share)\b(?:\s+of\s+([a-z_][a-z0-9_]*(?:\s*,\s*[a-z_][a-z0-9_]*)*))?/gi)) {
      const start = statementStart(text, match.index);
      const statement = text.slice(start, match.index);
      const flat = withoutSubqueries(statement);
      // The relations of the select: `from a x`, `join b y` → alias → table.
      const relations = new Map<string, TenantTable | undefined>();
      for (const rel of flat.matchAll(new RegExp(`\\b(?:from|join)\\s+${IDENT}${ALIAS}`, 'gi'))) {
        const table = bySqlName.get(rel[1]!.toLowerCase());
        relations.set((rel[2] ?? rel[1]!).toLowerCase(), table);
      }
      const lockedNames = match[1] ? match[1].split(',').map((n) => n.trim().toLowerCase()) : [...relations.keys()];
      for (const name of lockedNames) {
        const table = relations.get(name);
        if (!table) continue;
        const scoped = whereHasOrgId(flat, [name]);
        add(node, table, 'lock', scoped, 'SQL row lock without org_id in its where');
      }
    }
  };
  const visit = (node: ts.Node) => {
    if (ts.isTemplateExpression(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isStringLiteral(node)) {
      // A fragment inside a larger sql`…` is checked as part of it.
      if (!isNestedFragment(node)) check(node);
      if (ts.isTemplateExpression(node)) ts.forEachChild(node, visit);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(ctx.source);
}

/** A sql`…` fragment interpolated (maybe through a condition) into another template. */
function isNestedFragment(node: ts.Node): boolean {
  let current: ts.Node = node.parent;
  if (!current || !ts.isTaggedTemplateExpression(current)) return false;
  current = current.parent;
  while (current && (ts.isConditionalExpression(current) || ts.isParenthesizedExpression(current))) current = current.parent;
  return !!current && ts.isTemplateSpan(current);
}

// ---------------------------------------------------------------------------------------------
// Scan

function topLevelFunction(node: ts.Node): string | undefined {
  let found: string | undefined;
  for (let current: ts.Node | undefined = node.parent; current; current = current.parent) {
    if (ts.isFunctionLike(current)) found = functionName(current)?.name ?? found;
  }
  return found;
}

function enclosingFunction(node: ts.Node): string {
  for (let current: ts.Node | undefined = node.parent; current; current = current.parent) {
    if ((ts.isFunctionDeclaration(current) || ts.isMethodDeclaration(current)) && current.name) return current.name.getText();
    if ((ts.isArrowFunction(current) || ts.isFunctionExpression(current)) && current.parent) {
      const holder = current.parent;
      if (ts.isVariableDeclaration(holder) && ts.isIdentifier(holder.name)) return holder.name.text;
      if (ts.isPropertyAssignment(holder)) return holder.name.getText();
    }
  }
  return '<module>';
}

/** Scans one file's text (its path relative to the repository root, with `/`). */
export function scanSource(file: string, text: string, tables: Map<string, TenantTable>): Checked[] {
  const ctx = fileContext(file, text, tables);
  const checked: Checked[] = [];
  const make =
    (via: Checked['via']) =>
    (node: ts.Node, table: TenantTable, kind: FindingKind, scoped: boolean, reason: string) => {
      const line = ctx.source.getLineAndCharacterOfPosition(node.getStart(ctx.source)).line + 1;
      const fn = enclosingFunction(node);
      checked.push({ file, line, fn, topFn: topLevelFunction(node) ?? fn, table: table.sqlName, kind, via, reason, scoped });
    };
  drizzleFindings(ctx, make('drizzle'));
  sqlFindings(ctx, make('sql'));
  return checked;
}

/** Production server code: every `server/**\/*.ts` but tests, test helpers and migrations. */
export function serverFiles(root = ROOT): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (rel === 'server/db/migrations' || rel === 'server/test') continue;
        walk(rel);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) files.push(rel);
    }
  };
  walk('server');
  return files.sort();
}

export function scanServer(root = ROOT): Checked[] {
  const tables = readTenantTables(fs.readFileSync(path.join(root, SCHEMA_FILE), 'utf8'));
  return serverFiles(root).flatMap((file) => scanSource(file, fs.readFileSync(path.join(root, file), 'utf8'), tables));
}

/**
 * A finding that needs no scope: writes and locks on the allow-list, and reads by functions named
 * `…AnyOrg` (unscoped by name) or listed.
 */
export function isAllowed(finding: Finding, allowList: readonly AllowEntry[]): boolean {
  if (finding.kind === 'read' && /AnyOrg$/.test(finding.topFn)) return true;
  return allowList.some((e) => allows(e, finding));
}

export function allows(entry: AllowEntry, finding: Finding): boolean {
  return entry.file === path.posix.basename(finding.file) && entry.fn === finding.fn && entry.table === finding.table && entry.kind === finding.kind;
}

// ---------------------------------------------------------------------------------------------
// The few legitimate unscoped writes and locks, each with its reason.

export const ALLOW_LIST: readonly AllowEntry[] = [
  // Background workers: they serve every organization by design and never act on a request's ids.
  // The retention job removes finished deliveries older than the retention period, whatever the organization.
  { file: 'retention.ts', fn: 'purgeExpiredLogs', table: 'webhook_deliveries', kind: 'delete' },
  // The mail worker leases due rows of every organization (FOR UPDATE SKIP LOCKED), then records each
  // outcome by the row id it leased; mail_outbox.org_id is null for mail of no organization (sign-up, recovery).
  { file: 'outbox.ts', fn: 'deliverDueMail', table: 'mail_outbox', kind: 'update' },
  { file: 'outbox.ts', fn: 'deliverDueMail', table: 'mail_outbox', kind: 'lock' },
  // A pass records the outcomes of the rows it leased, by their ids, in one statement each.
  { file: 'outbox.ts', fn: 'record', table: 'mail_outbox', kind: 'update' },
  // At start on the embedded database (one process), frees leases a previous run left behind.
  { file: 'outbox.ts', fn: 'releaseStaleClaims', table: 'mail_outbox', kind: 'update' },
  // The text-message worker does the same with sms_outbox (org_id null for messages of no organization).
  { file: 'sms-outbox.ts', fn: 'deliverDueSms', table: 'sms_outbox', kind: 'update' },
  { file: 'sms-outbox.ts', fn: 'deliverDueSms', table: 'sms_outbox', kind: 'lock' },
  { file: 'sms-outbox.ts', fn: 'releaseStaleSmsClaims', table: 'sms_outbox', kind: 'update' },
  // The webhook worker leases due deliveries of every organization (its outcomes then name each row's org_id).
  { file: 'webhook-delivery.ts', fn: 'deliverDueWebhooks', table: 'webhook_deliveries', kind: 'update' },
  { file: 'webhook-delivery.ts', fn: 'deliverDueWebhooks', table: 'webhook_deliveries', kind: 'lock' },
  { file: 'webhook-delivery.ts', fn: 'releaseStaleWebhookClaims', table: 'webhook_deliveries', kind: 'update' },

  // Sessions belong to a user, not to an organization: auth_sessions.org_id is the organization chosen at
  // sign-in (null for platform, portal and e-mail sign-ins). Signing out, a password change, an ended
  // impersonation or a deactivated account ends sessions by session or user, whatever organization they name.
  { file: 'auth.repo.ts', fn: 'revokeSession', table: 'auth_sessions', kind: 'update' },
  { file: 'auth.repo.ts', fn: 'revokeUserSessions', table: 'auth_sessions', kind: 'update' },
  { file: 'impersonation.repo.ts', fn: 'endSession', table: 'auth_sessions', kind: 'update' },
  { file: 'team.repo.ts', fn: 'revokeAllSessions', table: 'auth_sessions', kind: 'update' },
  // Suspending an organization ends its members' sessions: those signed in to it and those signed in
  // without one (`org_id = $1 or (org_id is null and user is a member)`), so org_id is not a plain conjunct.
  { file: 'platform-admin.repo.ts', fn: 'revokeMemberSessions', table: 'auth_sessions', kind: 'update' },

  // Look-ups by a credential, locked for the change that follows: the token or the id is all the caller
  // has, and the row found names the organization every later write uses.
  // The haulier's manage link (no session): cancel and move lock the booking the token opens.
  { file: 'bookings.repo.ts', fn: 'findBookingViewByManageTokenAnyOrg', table: 'bookings', kind: 'lock' },
  // Accepting an invitation (no session yet) locks the invitation its token names.
  { file: 'team.repo.ts', fn: 'findLiveInvitationByTokenHashAnyOrg', table: 'org_invitations', kind: 'lock' },
  // Platform billing and the payment provider's webhook know an invoice by its id only.
  { file: 'billing.repo.ts', fn: 'findInvoiceAnyOrg', table: 'invoices', kind: 'lock' },

  // Reads scoped another way, with the reason.
  // The audit log's AuditScope is `{ orgId }` (that organization's entries) or `{ platform: true }`
  // (platform administrators: every entry); the scope is explicit in every call.
  { file: 'audit-log.repo.ts', fn: 'selectEntries', table: 'audit_log', kind: 'read' },
  { file: 'audit-log.repo.ts', fn: 'listEntries', table: 'audit_log', kind: 'read' },
  { file: 'audit-log.repo.ts', fn: 'filterOptions', table: 'audit_log', kind: 'read' },
  // The hot availability query reads bookings by bay id through the exclusion constraint's GiST index;
  // the bay ids come from the organization-scoped bays query, and an org_id term makes the planner read
  // the organization's whole booking history (see the function's comment).
  { file: 'availability.repo.ts', fn: 'listBusyIntervals', table: 'bookings', kind: 'read' },
];

if (import.meta.url === `file://${process.argv[1]}`) {
  const checked = scanServer();
  const unscoped = checked.filter((c) => !c.scoped);
  const count = (kinds: FindingKind[], list: Checked[]) => list.filter((c) => kinds.includes(c.kind)).length;
  for (const c of unscoped) {
    console.log(`${isAllowed(c, ALLOW_LIST) ? 'allowed ' : 'UNSCOPED'} ${c.kind.padEnd(6)} ${c.table.padEnd(24)} ${c.file}:${c.line} ${c.fn} (${c.via})`);
  }
  console.log(
    `writes and locks on tenant tables: ${count(['update', 'delete', 'lock'], checked)}, unscoped: ${count(['update', 'delete', 'lock'], unscoped)}` +
      ` (allowed ${count(['update', 'delete', 'lock'], unscoped.filter((c) => isAllowed(c, ALLOW_LIST)))});` +
      ` repository reads: ${count(['read'], checked)}, unscoped: ${count(['read'], unscoped)} (named or allowed ${count(['read'], unscoped.filter((c) => isAllowed(c, ALLOW_LIST)))})`,
  );
}
