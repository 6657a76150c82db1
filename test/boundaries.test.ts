import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceFiles } from './helpers/source-imports.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const SDKS = ['grammy', '@grammyjs/', '@slack/', 'discord.js', '@discordjs/', 'discord-api-types', 'nodemailer', 'node-cron'];

function imports(file: string): string[] {
  // Comments that start a line are dropped first, so a JSDoc example like `from 'x'` is not taken
  // for an import (only at a line start: a glob string such as '**/*.ts' is no comment).
  const text = readFileSync(file, 'utf8').replace(/^\s*\/\*[\s\S]*?\*\//gm, '').replace(/^\s*\/\/.*$/gm, '');
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]);
}

/** The file a relative import names (`./x.js` is written for `./x.ts`); null for a package. */
function target(file: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(file), spec);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts'), base];
  return candidates.find((c) => c.endsWith('.ts') && existsSync(c)) ?? base;
}

/**
 * The layers of src, bottom first (ARCHITECTURE.md §2): each may import only those at its left and itself.
 * render ← core ← guard (the injection guard behind core's Guard interface) ← store (engines behind
 * core's storage interface) ← mcp (the MCP client) ← adapters ← app, and platform (ids, addresses, the platform table) under
 * all of them.
 */
const LAYERS = ['platform', 'render', 'core', 'guard', 'media', 'store', 'mcp', 'adapters', 'app'] as const;
type Layer = (typeof LAYERS)[number];

function layerOf(rel: string): Layer | null {
  const [top, first] = rel.split('/');
  if (top !== 'src') return null;
  if (first === 'commands' || first === 'console' || first === 'ops' || first === 'cli.ts' || first.startsWith('app')) return 'app';
  return (LAYERS as readonly string[]).includes(first) ? (first as Layer) : null;
}

const srcFiles = () => sourceFiles(join(root, 'src'));
const isBuiltin = (spec: string) => spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]);

/** Every relative import in src as [importer, imported], paths relative to the repository. */
function edges(): [string, string][] {
  return srcFiles().flatMap((f) =>
    imports(f).flatMap((spec): [string, string][] => {
      const t = target(f, spec);
      return t ? [[relative(root, f), relative(root, t)]] : [];
    }),
  );
}

/** One cycle per strongly connected component of the import graph, as `a → b → a`. */
function cycles(graph: Map<string, string[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) visit(w);
      if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, low.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = stack.splice(stack.indexOf(v));
    const self = (graph.get(v) ?? []).includes(v);
    if (component.length > 1 || self) found.push(pathWithin(graph, new Set(component), v).join(' → '));
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** A shortest way from `start` back to itself inside one component (breadth first). */
function pathWithin(graph: Map<string, string[]>, component: Set<string>, start: string): string[] {
  const from = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!component.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let at = v; at !== start; at = from.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!from.has(w)) {
        from.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start];
}

describe('module boundaries', () => {
  it('keeps platform SDKs out of src/core and src/render (and node-cron, now only the schedule tests\' oracle: croner computes the slots)', () => {
    const offenders: string[] = [];
    for (const dir of ['src/core', 'src/render']) {
      for (const f of sourceFiles(join(root, dir))) {
        const rel = relative(root, f);
        for (const spec of imports(f)) {
          if (SDKS.some((s) => spec === s || spec.startsWith(s))) offenders.push(`${rel} imports ${spec}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('keeps adapters out of src/core and src/render', () => {
    const offenders = ['src/core', 'src/render'].flatMap((dir) =>
      sourceFiles(join(root, dir)).flatMap((f) => imports(f).filter((s) => s.includes('/adapters/')).map((s) => `${relative(root, f)} imports ${s}`)),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps src/guard out of src/core: core receives the guard through its Guard interface', () => {
    const offenders = edges()
      .filter(([from, to]) => from.startsWith('src/core/') && to.startsWith('src/guard/'))
      .map(([from, to]) => `${from} imports ${to}`);
    expect(offenders).toEqual([]);
  });

  it('lets only the composition root and the commands import src/guard', () => {
    const offenders = edges()
      .filter(([from, to]) => to.startsWith('src/guard/') && !from.startsWith('src/guard/'))
      .filter(([from]) => from !== 'src/app.ts' && !from.startsWith('src/commands/'))
      .map(([from, to]) => `${from} imports ${to}`);
    expect(offenders).toEqual([]);
  });

  it('keeps src/render free of I/O', () => {
    const offenders = sourceFiles(join(root, 'src/render')).flatMap((f) =>
      imports(f).filter((s) => /^(node:)?(fs|net|http|https|child_process|dgram)(\/|$)/.test(s)).map((s) => `${relative(root, f)} imports ${s}`),
    );
    expect(offenders).toEqual([]);
  });

  it('every file in src belongs to a layer', () => {
    const unplaced = srcFiles()
      .map((f) => relative(root, f))
      .filter((rel) => layerOf(rel) === null);
    expect(unplaced).toEqual([]);
  });

  it.each(LAYERS)('%s imports only itself and the layers below it', (layer) => {
    const allowed = LAYERS.slice(0, LAYERS.indexOf(layer) + 1);
    const offenders = edges()
      .filter(([from]) => layerOf(from) === layer)
      .filter(([, to]) => !allowed.includes(layerOf(to) ?? ('outside src' as Layer)))
      .map(([from, to]) => `${from} imports ${to}`);
    expect(offenders).toEqual([]);
  });

  // zod is the one package allowed: a door's definition (src/platform/doors/) carries its YAML
  // section's schema, so the core can build the config schema without naming doors. zod does no
  // I/O and knows no platform; every SDK stays out.
  it('keeps src/platform a leaf: nothing but its own files, node built-ins and zod', () => {
    const offenders = sourceFiles(join(root, 'src/platform')).flatMap((f) =>
      imports(f)
        .filter((spec) => {
          const t = target(f, spec);
          return t ? !relative(root, t).startsWith('src/platform/') : !isBuiltin(spec) && spec !== 'zod';
        })
        .map((spec) => `${relative(root, f)} imports ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it('has no import cycle in src (type-only imports count: the layers point one way)', () => {
    const graph = new Map<string, string[]>(srcFiles().map((f) => [relative(root, f), []]));
    const all = edges();
    // The walk resolves `.js` specifiers to the .ts files (else it would see no graph at all).
    expect(all).toContainEqual(['src/core/types.ts', 'src/platform/ids.ts']);
    for (const [from, to] of all) graph.get(from)?.push(to);
    expect(cycles(graph)).toEqual([]);
  });
});
