/**
 * `/readyz` and the Slack door in Socket Mode (ARCHITECTURE.md §18), through `switchboard start`
 * against the Slack fake's Socket Mode: a dropped connection, then refused tries to reconnect, make
 * the door not ready within 5 s, named `door:slack`; once the client is connected again, ready again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, type ModelFake } from '../fakes/model.js';
import { startSlackFake, type SlackFake } from '../fakes/slack.js';
import { cleanEnv, cleanUp, killIfRunning, removeDir, sleep, startCli, type Running } from '../helpers/cli.js';
import { doorEnv } from '../helpers/door-env.js';
import { freePort } from '../helpers/ports.js';

let model: ModelFake;
let slack: SlackFake;
let home: string;
let gw: Running | undefined;

beforeAll(async () => {
  model = await startModelFake({ script: () => ({ text: 'ok' }) });
  slack = await startSlackFake();
  home = mkdtempSync(join(tmpdir(), 'sb-ready-slack-'));
  writeFileSync(join(home, 'config.yaml'), 'streaming:\n  slack: off\n');
});
afterAll(() => cleanUp(() => killIfRunning(gw), () => slack?.close(), () => model?.close(), () => removeDir(home)));

interface Ready {
  status: number;
  body: { status?: string; problems?: Record<string, string>; doors?: Record<string, string> };
}

async function readyz(base: string): Promise<Ready> {
  const res = await fetch(`${base}/readyz`);
  return { status: res.status, body: (await res.json()) as Ready['body'] };
}

/** Polls /readyz until it answers `status`; the answer and how long it took. */
async function waitForStatus(base: string, status: number, withinMs: number): Promise<{ ready: Ready; ms: number }> {
  const from = Date.now();
  let ready = await readyz(base);
  while (ready.status !== status && Date.now() - from < withinMs) {
    await sleep(50);
    ready = await readyz(base);
  }
  return { ready, ms: Date.now() - from };
}

describe('switchboard start: /readyz follows the Slack Socket Mode connection', () => {
  it('503 naming door:slack within 5 s of a drop, stays so while reconnecting is refused, 200 once reconnected', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    gw = startCli(['start'], { env: cleanEnv({ SWITCHBOARD_HOME: home, SWITCHBOARD_HEALTH_PORT: String(port), ...doorEnv.model(model), ...doorEnv.slack(slack, { socket: true, allowed: 'U1001' }) }) });
    await gw.waitFor(/ready \(slack/);
    const up = await readyz(base);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.doors).toMatchObject({ slack: 'connected' });

    // The next try to reconnect is refused (the WebSocket upgrade is cut off); the connection drops.
    slack.refuseSockets(1);
    const opens = slack.callsTo('apps.connections.open').length;
    slack.dropSockets();
    const down = await waitForStatus(base, 503, 5_000);
    expect(down.ready.status, JSON.stringify(down.ready.body)).toBe(503);
    expect(down.ms).toBeLessThanOrEqual(5_000);
    expect(down.ready.body.problems?.['door:slack']).toMatch(/^Socket Mode connection dropped; reconnecting$/);
    expect(down.ready.body.doors).toMatchObject({ slack: 'down' });

    // The refused try: still not ready, and the line says why.
    await expect.poll(() => slack.callsTo('apps.connections.open').length, { timeout: 10_000 }).toBeGreaterThan(opens);
    await sleep(500);
    const refused = await readyz(base);
    expect(refused.status).toBe(503);
    expect(refused.body.problems?.['door:slack']).toBe('Socket Mode connection refused (1 try since it dropped); reconnecting');

    // The try after it connects (the client waits its ping timeout, 5 s, between tries).
    const back = await waitForStatus(base, 200, 15_000);
    expect(back.ready.status, JSON.stringify(back.ready.body)).toBe(200);
    expect(back.ready.body.doors).toMatchObject({ slack: 'connected' });
    expect(await gw.stop('SIGTERM')).toBe(0);
  }, 40_000);
});
