/**
 * Where the pipeline allocates: V8's sampling heap profiler with collected objects included (so it
 * counts garbage too, not only what survives), over the throughput load, attributed to the
 * allocating function. `node --import tsx bench/allocations.ts [messages]` prints the top 25.
 */
import { sampleHeap, topLines } from './heap-sampling.js';

const messages = Number(process.argv[2] ?? 3000);
const samples = await sampleHeap(messages, true);
process.stdout.write(`allocated ≈ ${(samples.total / 1048576).toFixed(0)} MB over ${messages} messages (${(samples.total / messages / 1024).toFixed(1)} KB/message)\n`);
process.stdout.write(topLines(samples, 25));
