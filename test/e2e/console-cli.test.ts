/** How `start` and `switchboard console` bring the console up (no browser needed for these). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv, cleanUp, killIfRunning, removeDir, runCli, startCli, type Running } from '../helpers/cli.js';

let home: string;
let holder: Server;
let busyPort: number;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'sb-console-cli-'));
  holder = createServer();
  await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
  busyPort = (holder.address() as { port: number }).port;
});
afterAll(() => cleanUp(() => new Promise((r) => holder.close(r)), () => removeDir(home)));

describe('console start-up', () => {
  let gw: Running | undefined;
  afterAll(() => killIfRunning(gw));

  it('a busy port is one warning line: the gateway still starts', async () => {
    gw = startCli(['start'], { env: cleanEnv({ SWITCHBOARD_HOME: home, SWITCHBOARD_CONSOLE_PORT: String(busyPort) }) });
    await gw.waitFor(/ready \(/);
    expect(gw.stderr()).toMatch(new RegExp(`\\[console\\] cannot listen on 127\\.0\\.0\\.1:${busyPort} \\(EADDRINUSE\\)`));
    expect(await gw.stop('SIGTERM')).toBe(0);
  });

  it('a host other than loopback without SWITCHBOARD_CONSOLE_TOKEN stops the start with one line naming it', async () => {
    const bad = await runCli(['start'], { env: cleanEnv({ SWITCHBOARD_HOME: home, SWITCHBOARD_CONSOLE_PORT: String(busyPort + 1), SWITCHBOARD_CONSOLE_HOST: '0.0.0.0' }) });
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('SWITCHBOARD_CONSOLE_TOKEN');
  });

  it('`switchboard console` serves the console alone and stops cleanly on SIGTERM', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
    const web = startCli(['console'], { env: cleanEnv({ SWITCHBOARD_HOME: home, SWITCHBOARD_CONSOLE_PORT: String(port), SWITCHBOARD_CONSOLE_TOKEN: 'explicit-console-token-1234' }) });
    try {
      await web.waitFor(/web console on/);
      expect(web.stderr()).toContain('the token is SWITCHBOARD_CONSOLE_TOKEN');
      expect(web.stderr()).not.toContain('explicit-console-token-1234');
      expect((await fetch(`http://127.0.0.1:${port}/api/overview`)).status).toBe(401);
      const res = await fetch(`http://127.0.0.1:${port}/api/overview`, { headers: { Authorization: 'Bearer explicit-console-token-1234' } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { engine: string; doors: Array<{ platform: string; state: string }> };
      expect(body.engine).toBe('sqlite');
      expect(body.doors.every((d) => d.state === 'stopped')).toBe(true);
      expect(await web.stop('SIGTERM')).toBe(0);
      expect(readFileSync(join(home, 'console.token'), 'utf8')).not.toContain('explicit'); // made by the first start, untouched
    } finally {
      await killIfRunning(web);
    }
  });
});
