/**
 * V8's sampling heap profiler over the throughput load (the fakes and simulated users in their own
 * process, Switchboard in this one), attributed to the allocating function. Shared by
 * bench/allocations.ts (every allocation, garbage included) and bench/promoted.ts (what outlived a
 * scavenge).
 */
import { Session } from 'node:inspector/promises';
import { startHost } from './gateway.js';
import { startPipeline } from './pipeline.js';

interface SampleNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SampleNode[];
}

export interface HeapSamples {
  /** Bytes sampled in all. */
  total: number;
  /** Bytes per allocating function ("name file:line"). */
  byFunction: Map<string, number>;
}

/** Samples `messages` messages after a 2,000-message warm-up; `minorGarbage` counts what a scavenge collected too. */
export async function sampleHeap(messages: number, minorGarbage: boolean): Promise<HeapSamples> {
  const host = await startHost();
  const p = await startPipeline(host.endpoints);
  await host.run<number>({ cmd: 'closedLoop', users: 100, total: 2000, firstUser: 900_000 });
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: minorGarbage } as never);
  await host.run<number>({ cmd: 'closedLoop', users: 100, total: messages, firstUser: 900_000 });
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: SampleNode } };
  await p.stop();
  await host.close();

  const byFunction = new Map<string, number>();
  let total = 0;
  const walk = (n: SampleNode) => {
    const where = n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|bench|test)\//, '$1/');
    const key = `${n.callFrame.functionName || '(anonymous)'} ${where}:${n.callFrame.lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + n.selfSize);
    total += n.selfSize;
    n.children.forEach(walk);
  };
  walk(profile.head);
  return { total, byFunction };
}

/** The `count` largest allocators, one line each. */
export function topLines(samples: HeapSamples, count: number): string {
  return [...samples.byFunction]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([k, v]) => `${(v / 1048576).toFixed(1).padStart(7)} MB  ${k}\n`)
    .join('');
}
