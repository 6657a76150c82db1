/**
 * What outlives a scavenge: V8's sampling heap profiler counting objects that were NOT collected by a
 * minor GC (so: promoted to old space, or still live at the end), over the throughput load,
 * attributed to the allocating function. This churn is what grows old space between full
 * collections (and RSS with it); bench/allocations.ts counts every allocation instead.
 * `node --import tsx bench/promoted.ts [messages]` prints the top 40. One run is noisy (it depends on
 * when scavenges fall): compare a few.
 */
import { Session } from 'node:inspector/promises';
import { startHost } from './gateway.js';
import { startPipeline } from './pipeline.js';

interface SampleNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SampleNode[];
}

const messages = Number(process.argv[2] ?? 3000);
const host = await startHost();
const p = await startPipeline(host.endpoints);
await host.run<number>({ cmd: 'closedLoop', users: 100, total: 2000, firstUser: 900_000 });
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false } as never);
await host.run<number>({ cmd: 'closedLoop', users: 100, total: messages, firstUser: 900_000 });
const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: SampleNode } };
await p.stop();
await host.close();

const self = new Map<string, number>();
let total = 0;
const walk = (n: SampleNode) => {
  const where = n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|bench|test)\//, '$1/');
  const key = `${n.callFrame.functionName || '(anonymous)'} ${where}:${n.callFrame.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + n.selfSize);
  total += n.selfSize;
  n.children.forEach(walk);
};
walk(profile.head);
process.stdout.write(`outlived a scavenge ≈ ${(total / 1048576).toFixed(0)} MB over ${messages} messages (${(total / messages / 1024).toFixed(1)} KB/message)\n`);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) process.stdout.write(`${(v / 1048576).toFixed(1).padStart(7)} MB  ${k}\n`);
