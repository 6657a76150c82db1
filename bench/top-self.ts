/** Top self-time functions of a V8 .cpuprofile: `node bench/top-self.ts FILE [N]` (prints a Markdown table). */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
const [file, count = '10'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const n = byId.get(id)!;
  const dt = profile.timeDeltas[i] ?? 0;
  total += dt;
  const where = n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(src|bench|test)\//, '$1/');
  const key = `${n.callFrame.functionName || '(anonymous)'} ${where ? `${where}:${n.callFrame.lineNumber + 1}` : ''}`.trim();
  self.set(key, (self.get(key) ?? 0) + dt);
});
const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(count));
process.stdout.write('| # | function | self ms | self % |\n|---:|---|---:|---:|\n');
top.forEach(([k, us], i) => process.stdout.write(`| ${i + 1} | ${k.replace(/\|/g, '\\|')} | ${(us / 1000).toFixed(0)} | ${((us / total) * 100).toFixed(1)} |\n`));
