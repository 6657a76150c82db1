/**
 * The PostgreSQL path per message (ARCHITECTURE.md §9, issue 42): one instance of the real
 * `switchboard start` on PostgreSQL and one on SQLite, side by side in one run, behind the SAME door
 * (Slack HTTP) and the same closed-loop load (USERS users, one message in flight each, instant model):
 * messages/s of each, their ratio, and the round trips to PostgreSQL per answered message (statements
 * and transactions, counted by a loopback proxy on the wire: bench/pg-round-trips.ts).
 *
 * Standalone: `node --import tsx bench/pgpath.ts` prints the result as JSON (PGPATH_STATEMENTS=1 also
 * prints the statements seen, most frequent first).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { eventBody, postSigned, startSlackFake, type SlackFake } from '../test/fakes/slack.js';
import { startInstantModel, type InstantModel } from './instant-model.js';
import { startBenchPostgres } from './postgres-server.js';
import { startRoundTripProxy, type RoundTripProxy } from './pg-round-trips.js';
// The same load as the instances section (USERS users, MESSAGES messages) and its helpers to run `switchboard start`.
import { MESSAGES, SECRET, USERS, answerWatcher, startInstance, stopAll, waitReady, type Started } from './instances.js';

export interface PgPathBench {
  users: number;
  messages: number;
  postgresPerSec: number;
  sqlitePerSec: number;
  /** PostgreSQL ÷ SQLite messages/s (goal ≥ 0.5). */
  ratio: number;
  /** Round trips to PostgreSQL during the load ÷ answered messages. */
  roundTripsPerMessage: number;
  /** The most frequent statements during the load (text cut to 90 characters), for reading the figure. */
  topStatements: Array<{ sql: string; count: number }>;
}

async function oneInstance(
  slack: SlackFake,
  model: InstantModel,
  label: string,
  databaseUrl: string | undefined,
  proxy: RoundTripProxy | undefined,
): Promise<{ perSec: number; trips: number; statements: Map<string, number> }> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-pgpath-'));
  const config = join(dir, 'config.yaml');
  writeFileSync(config, '{}\n');
  const vars: Record<string, string> = {
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: 'sk-bench',
    MODEL: 'bench-model',
    SLACK_BOT_TOKEN: slack.token,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    SLACK_ALLOWED_USERS: '*',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const instances: Started[] = [];
  try {
    instances.push(await startInstance(`pgpath-${label}`, vars, config));
    await waitReady(instances);
    const watcher = answerWatcher(slack);
    let ts = 0;
    let sent = 0;
    const perUser = Math.ceil(MESSAGES / USERS);
    const user = async (u: number) => {
      for (let k = 0; k < perUser && sent < MESSAGES; k++) {
        sent++;
        const channel = `DP${label.toUpperCase()}U${u}`;
        const answered = watcher.next(channel);
        const body = eventBody({ type: 'message', channel_type: 'im', channel, user: `UP${u}`, text: `question ${k}`, ts: `17300${String(++ts).padStart(5, '0')}.000100` });
        await postSigned(instances[0].events!, SECRET, body);
        await answered;
      }
    };
    const before = proxy?.trips() ?? 0;
    const beforeStatements = proxy?.statements() ?? new Map<string, number>();
    const t0 = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const stuck = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`pgpath: ${label} answered too slowly (over 180 s): ${instances[0].gw.stderr().slice(-500)}`)), 180_000);
    });
    await Promise.race([Promise.all(Array.from({ length: USERS }, (_, u) => user(u))), stuck]).finally(() => clearTimeout(timer));
    const elapsed = performance.now() - t0;
    const trips = (proxy?.trips() ?? 0) - before;
    const statements = new Map<string, number>();
    for (const [sql, n] of proxy?.statements() ?? []) if (n - (beforeStatements.get(sql) ?? 0) > 0) statements.set(sql, n - (beforeStatements.get(sql) ?? 0));
    watcher.stop();
    return { perSec: (MESSAGES / elapsed) * 1000, trips, statements };
  } finally {
    await stopAll(instances);
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchPgPath(log: (line: string) => void = () => undefined): Promise<PgPathBench> {
  const pgServer = await startBenchPostgres();
  const slack = await startSlackFake({});
  const model = await startInstantModel();
  const proxy = await startRoundTripProxy(await pgServer.database('bench_pgpath'));
  try {
    const pgRun = await oneInstance(slack, model, 'PG', proxy.url, proxy);
    log(`pgpath: 1 instance on PostgreSQL: ${Math.round(pgRun.perSec)} messages/s, ${(pgRun.trips / MESSAGES).toFixed(1)} round trips per answered message`);
    const liteRun = await oneInstance(slack, model, 'LITE', undefined, undefined);
    log(`pgpath: 1 instance on SQLite: ${Math.round(liteRun.perSec)} messages/s`);
    const r2 = (v: number) => Math.round(v * 100) / 100;
    return {
      users: USERS,
      messages: MESSAGES,
      postgresPerSec: Math.round(pgRun.perSec),
      sqlitePerSec: Math.round(liteRun.perSec),
      ratio: r2(pgRun.perSec / liteRun.perSec),
      roundTripsPerMessage: r2(pgRun.trips / MESSAGES),
      topStatements: [...pgRun.statements].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([sql, count]) => ({ sql, count })),
    };
  } finally {
    await Promise.allSettled([slack.close(), model.close(), proxy.close()]);
    await pgServer.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchPgPath((l) => process.stderr.write(`${l}\n`));
  const { topStatements, ...figures } = result;
  process.stdout.write(`${JSON.stringify(process.env.PGPATH_STATEMENTS ? result : figures, null, 2)}\n`);
  void topStatements;
}
