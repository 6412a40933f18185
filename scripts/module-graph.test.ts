import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildAreaGraph, describeCycle, findCycles } from './module-graph';

// The server's modules never import each other in a cycle (issue 20), whether directly or through
// a shared area; the check itself is shown to find one in a small tree made for it.

describe('server module graph', () => {
  it('has no cycle that involves a module', () => {
    const graph = buildAreaGraph('server');
    const cycles = findCycles(graph);
    expect(cycles.map((cycle) => describeCycle(graph, cycle))).toEqual([]);
    // Sanity: the graph is the real one (modules use shared areas, the app wires modules).
    expect(graph.get('modules/gate')?.has('modules/bookings')).toBe(true);
    expect(graph.get('app')?.has('modules/bookings')).toBe(true);
  });

  describe('on a tree made to have cycles', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-graph-'));
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    };
    afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

    // a → b (type-only) → shared → a: a cycle through a shared area. c → a: no cycle.
    write('modules/a/a.service.ts', "import type { B } from '../b/b.service';\nexport const a = 1;\n");
    write('modules/b/b.service.ts', "export { x } from '../../shared/x';\nexport type B = number;\n");
    write('shared/x.ts', "export const x = async () => (await import('../modules/a/a.service')).a;\n");
    write('modules/c/c.ts', "import { a } from '../a/a.service';\nexport const c = a;\n");
    // Tests and cycles among shared areas alone do not count.
    write('modules/c/c.test.ts', "import '../../modules/c/c';\n");
    write('modules/a/a.test.ts', "import '../c/c';\n");
    write('plugins/p.ts', "import '../auth/t';\n");
    write('auth/t.ts', "import type {} from '../plugins/p';\n// import '../modules/c/c' is a comment, not an import\n");

    it('finds the cycle through the shared area, with the imports that make it', () => {
      const graph = buildAreaGraph(root);
      const cycles = findCycles(graph);
      expect(cycles).toEqual([['modules/a', 'modules/b', 'shared']]);
      const text = describeCycle(graph, cycles[0]!);
      expect(text).toContain('modules/a → modules/b');
      expect(text).toContain('modules/b → shared');
      expect(text).toContain('shared → modules/a');
      expect(text).toContain('imports ../b/b.service');
    });

    it('leaves tests and comments out', () => {
      const graph = buildAreaGraph(root);
      expect(graph.get('modules/a')?.has('modules/c')).toBeFalsy();
      expect(graph.get('auth')?.has('modules/c')).toBeFalsy();
      expect(graph.get('auth')?.has('plugins')).toBe(true);
    });
  });
});
