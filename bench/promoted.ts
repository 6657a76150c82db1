/**
 * What outlives a scavenge: V8's sampling heap profiler counting objects that were NOT collected by a
 * minor GC (so: promoted to old space, or still live at the end), over the throughput load,
 * attributed to the allocating function. This churn is what grows old space between full
 * collections (and RSS with it); bench/allocations.ts counts every allocation instead.
 * `node --import tsx bench/promoted.ts [messages]` prints the top 40. One run is noisy (it depends on
 * when scavenges fall): compare a few.
 */
import { sampleHeap, topLines } from './heap-sampling.js';

const messages = Number(process.argv[2] ?? 3000);
const samples = await sampleHeap(messages, false);
process.stdout.write(`outlived a scavenge ≈ ${(samples.total / 1048576).toFixed(0)} MB over ${messages} messages (${(samples.total / messages / 1024).toFixed(1)} KB/message)\n`);
process.stdout.write(topLines(samples, 40));
