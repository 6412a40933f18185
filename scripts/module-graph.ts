// The server's import graph between areas (issue 20): each folder under server/modules/ is one
// module, every other folder under server/ (plugins, delivery, auth, audit, jobs, mail, db …) one
// area, and each file directly under server/ its own node (app, main, context, config …). Test
// files do not count. `tsx scripts/module-graph.ts` prints every cycle that involves a module and
// exits 1 (npm run lint runs it; scripts/module-graph.test.ts too); `--print` lists every edge.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Area → the areas it imports → the imports that make each edge (for the message). */
export type AreaGraph = Map<string, Map<string, string[]>>;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** `server/modules/<name>/…` → `modules/<name>`; `server/<area>/…` → `<area>`; `server/app.ts` → `app.ts`. */
export function areaOf(file: string, root = 'server'): string {
  const parts = path.relative(path.resolve(root), path.resolve(file)).split(path.sep);
  if (parts[0] === 'modules' && parts.length > 2) return `modules/${parts[1]}`;
  return parts[0]!.replace(/\.tsx?$/, '');
}

/** Edges between areas, each with the imports that make it: Map<from, Map<to, string[]>>. */
export function buildAreaGraph(root = 'server'): AreaGraph {
  const graph: AreaGraph = new Map();
  for (const file of sourceFiles(root)) {
    const from = areaOf(file, root);
    // TypeScript's own scan: static, dynamic and type-only imports and re-exports, no comments.
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (!specifier.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), specifier);
      if (!target.startsWith(path.resolve(root) + path.sep)) continue;
      const to = areaOf(target, root);
      if (to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      const edges = graph.get(from)!;
      if (!edges.has(to)) edges.set(to, []);
      edges.get(to)!.push(`${path.relative(process.cwd(), file)} imports ${specifier}`);
    }
  }
  return graph;
}

/** Strongly connected components with more than one area that include a module (Tarjan), each sorted. */
export function findCycles(graph: AreaGraph): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    indexOf.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indexOf.get(next)!));
      }
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 && component.some((area) => area.startsWith('modules/'))) cycles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indexOf.has(node)) visit(node);
  return cycles;
}

/** The shortest cycle through a module inside one component: [a, b, …, a]. */
export function shortestCycle(graph: AreaGraph, component: string[]): string[] | null {
  const members = new Set(component);
  let best: string[] | null = null;
  for (const start of component.filter((area) => area.startsWith('modules/'))) {
    const previous = new Map<string, string | null>([[start, null]]);
    const queue = [start];
    let found: string | null = null;
    while (queue.length > 0 && !found) {
      const node = queue.shift()!;
      for (const next of graph.get(node)?.keys() ?? []) {
        if (!members.has(next)) continue;
        if (next === start) {
          found = node;
          break;
        }
        if (!previous.has(next)) {
          previous.set(next, node);
          queue.push(next);
        }
      }
    }
    if (!found) continue;
    const route = [start];
    for (let node: string = found; node !== start; node = previous.get(node)!) route.splice(1, 0, node);
    route.push(start);
    if (!best || route.length < best.length) best = route;
  }
  return best;
}

/** The cycle, one import per step, for a person to read. */
export function describeCycle(graph: AreaGraph, component: string[]): string {
  const cycle = shortestCycle(graph, component) ?? component;
  const steps = cycle.slice(0, -1).map((from, i) => {
    const to = cycle[i + 1]!;
    const imports = graph.get(from)?.get(to) ?? [];
    return `  ${from} → ${to}   (${imports[0] ?? '?'}${imports.length > 1 ? ` and ${imports.length - 1} more` : ''})`;
  });
  const rest = component.length > cycle.length - 1 ? `\n  (${component.length} areas are on cycles with each other: ${component.join(', ')})` : '';
  return steps.join('\n') + rest;
}

if (import.meta.url === `file://${path.resolve(process.argv[1])}`) {
  const root = process.argv.find((arg, i) => i > 1 && !arg.startsWith('--')) ?? 'server';
  const graph = buildAreaGraph(root);
  const cycles = findCycles(graph);
  if (process.argv.includes('--print')) {
    for (const [from, edges] of [...graph].sort()) console.log(`${from} → ${[...edges.keys()].sort().join(', ')}`);
  }
  if (cycles.length > 0) {
    for (const cycle of cycles) console.error(`Import cycle between server modules:\n${describeCycle(graph, cycle)}`);
    process.exit(1);
  }
}
