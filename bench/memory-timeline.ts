/**
 * Memory over time under the throughput load (100 users, one message in flight each), in this
 * process: rss, heapUsed, heapTotal, external and arrayBuffers every 2 s, MiB. Shows how far old
 * space and dead Buffers grow between full collections.
 * `node --import tsx bench/memory-timeline.ts [messages]`.
 */
import { startHost } from './gateway.js';
import { startPipeline } from './pipeline.js';
const host = await startHost();
const p = await startPipeline(host.endpoints);
const mb = (n: number) => (n / 1048576).toFixed(0);
const t = setInterval(() => { const m = process.memoryUsage(); process.stdout.write(`rss ${mb(m.rss)} heapUsed ${mb(m.heapUsed)} heapTotal ${mb(m.heapTotal)} external ${mb(m.external)} arrayBuffers ${mb(m.arrayBuffers)}\n`); }, 2000);
await host.run<number>({ cmd: 'closedLoop', users: 100, total: Number(process.argv[2] ?? 8000), firstUser: 900_000 });
clearInterval(t);
await p.stop(); await host.close();
