/**
 * What a source file loads, read from the text (no TypeScript compiler): for the tests that keep
 * start-up lean and the layers apart.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Every .ts file under `dir`. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Specifiers of packages (and package files) reached from `file` by static, non-type imports (what loading the module loads). */
export function staticSpecifiers(file: string, seen = new Set<string>()): Set<string> {
  const out = new Set<string>();
  if (seen.has(file)) return out;
  seen.add(file);
  const text = readFileSync(file, 'utf8').replace(/^\s*\/\*[\s\S]*?\*\//gm, '').replace(/^\s*\/\/.*$/gm, '');
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'";]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm)) {
    const spec = m[1] ?? m[2];
    if (spec.startsWith('.')) for (const p of staticSpecifiers(resolve(dirname(file), spec.replace(/\.js$/, '.ts')), seen)) out.add(p);
    else out.add(spec);
  }
  return out;
}

/** Packages reached from `file` by static, non-type imports. */
export function staticPackages(file: string): Set<string> {
  return new Set([...staticSpecifiers(file)].map((spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0])));
}
