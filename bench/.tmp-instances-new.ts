import { sigtermHandover, rollingRestart } from './instances.js';
import { startBenchPostgres } from './postgres-server.js';
import { startSlackFake } from '../test/fakes/slack.js';
import { startTelegramFake } from '../test/fakes/telegram.js';
import { startInstantModel } from './instant-model.js';
const log = (l: string) => process.stderr.write(l + '\n');
const pg = await startBenchPostgres();
const slack = await startSlackFake({});
const tg = await startTelegramFake({});
const model = await startInstantModel();
try {
  if (process.argv.includes('handover')) console.log(JSON.stringify(await sigtermHandover(pg, tg, model, log)));
  if (process.argv.includes('rolling')) console.log(JSON.stringify(await rollingRestart(pg, slack, model, log)));
} finally {
  await Promise.allSettled([slack.close(), tg.close(), model.close()]);
  await pg.stop();
}
