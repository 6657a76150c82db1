/**
 * CPU profile of the pipeline under the throughput load: the fakes and simulated users in their own
 * process (as in the gateway benchmark), Switchboard in this one. Run with `--cpu-prof`:
 *
 *   node --cpu-prof --cpu-prof-dir=bench/profiles --import tsx bench/profile.ts [messages]
 *
 * then `node bench/top-self.ts bench/profiles/<file>.cpuprofile` for the top self-time functions.
 */
import { startHost } from './gateway.js';
import { startPipeline } from './pipeline.js';

const messages = Number(process.argv[2] ?? 6000);
const host = await startHost();
try {
  const warm = await startPipeline(host.endpoints);
  await host.run<number>({ cmd: 'closedLoop', users: 50, total: 500, firstUser: 1 });
  await warm.stop();
  const p = await startPipeline(host.endpoints);
  const ms = await host.run<number>({ cmd: 'closedLoop', users: 50, total: messages, firstUser: 10_000 });
  process.stderr.write(`profile: ${messages} messages, ${Math.round(messages / (ms / 1000))} messages/s\n`);
  await p.stop();
} finally {
  await host.close();
}
