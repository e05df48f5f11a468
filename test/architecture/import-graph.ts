/**
 * The import graph of src/, read from the code's own import and export-from statements
 * (`import type` included: a type-only import still ties two files together).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const SRC = resolve(import.meta.dirname, '../../src');

/** The package's own entry names, as the redis, otel and testing entries import them. */
const SELF: Record<string, string> = {
  'momo-partner-sdk': 'index.ts',
  'momo-partner-sdk/testing': 'testing/index.ts',
  'momo-partner-sdk/redis': 'redis/index.ts',
  'momo-partner-sdk/postgres': 'postgres/index.ts',
  'momo-partner-sdk/otel': 'otel/index.ts',
  'momo-partner-sdk/batches': 'batches/index.ts',
  'momo-partner-sdk/reconcile': 'reconcile/index.ts',
  'momo-partner-sdk/subscriptions': 'subscriptions/index.ts',
  'momo-partner-sdk/outbox': 'outbox/index.ts',
  'momo-partner-sdk/tenants': 'tenants/index.ts',
  'momo-partner-sdk/graphile-worker': 'graphile-worker/index.ts',
};

/** Every .ts file under src/, as a path relative to src/ with forward slashes. */
export function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [relative(SRC, path).split('\\').join('/')] : [];
  });
}

/** The module specifiers a file names: import, import type, export from, import(). */
export function specifiers(text: string, file = 'file.ts'): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal))
        found.push(arg.literal.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The src/ file a specifier of `from` names, or undefined (a package or a non-.ts file). */
function resolveIn(files: Set<string>, from: string, specifier: string): string | undefined {
  const self = SELF[specifier];
  if (self) return self;
  if (!specifier.startsWith('.')) return undefined;
  const base = relative(SRC, resolve(SRC, dirname(from), specifier))
    .split('\\')
    .join('/');
  return [`${base}.ts`, `${base}/index.ts`, base].find((candidate) => files.has(candidate));
}

/** Each src/ file and the src/ files it imports. */
export function importGraph(): Map<string, string[]> {
  const files = sourceFiles();
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(SRC, file), 'utf8');
    const targets = specifiers(text, file)
      .map((specifier) => resolveIn(known, file, specifier))
      .filter((target): target is string => target !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The graph of src/'s folders: which folder's files import which other folder's (a file at
 * the top of src/, such as client.ts, stands for itself). A circle here is a knot that no
 * file-level circle shows: `products/` using `settle/` while a file of `settle/` names a
 * type of `products/`.
 */
export function folderGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const folderOf = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : file);
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    const reached = folders.get(from) ?? new Set<string>();
    folders.set(from, reached);
    for (const target of targets) if (folderOf(target) !== from) reached.add(folderOf(target));
  }
  return new Map([...folders].map(([folder, reached]) => [folder, [...reached]]));
}

/**
 * Every import circle, each once: one way around it (its first file repeated at the end),
 * then any other file caught in the same knot.
 */
export function circles(graph: Map<string, string[]>): string[][] {
  // Tarjan's strongly connected components: a component of more than one file (or a
  // file importing itself) is a circle; one path around it is reported.
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (file: string): void => {
    order.set(file, index);
    low.set(file, index++);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) ?? 0, order.get(next) ?? 0));
      }
    }
    if (low.get(file) !== order.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) components.push(component);
  };
  for (const file of graph.keys()) if (!order.has(file)) connect(file);
  return components.map((component) => {
    const path = pathAround(graph, new Set(component));
    const others = component.filter((file) => !path.includes(file)).sort();
    return others.length > 0 ? [...path, `(and ${others.join(', ')})`] : path;
  });
}

/** One circle through the first file of a component, staying inside it. */
function pathAround(graph: Map<string, string[]>, component: Set<string>): string[] {
  const [start] = [...component].sort();
  const from = new Map<string, string>();
  const queue = [start as string];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const next of graph.get(file) ?? []) {
      if (!component.has(next)) continue;
      if (next === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(from.get(path[0] as string) as string);
        return [...path, start as string];
      }
      if (!from.has(next)) {
        from.set(next, file);
        queue.push(next);
      }
    }
  }
  return [...component];
}
