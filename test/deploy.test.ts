/**
 * What ships for servers (ARCHITECTURE.md §18): the Dockerfile, docker-compose.yml and the systemd unit.
 * The image cannot be built here (no registry for base images): what it runs — the packed tarball
 * installed without dev dependencies, as a non-root user — is tested in packaging.test.ts; here each
 * file is checked for what an operator relies on, and the unit with `systemd-analyze verify`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configSchema } from '../src/core/config.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const defaultGrace = configSchema.parse({}).gateway.shutdown_grace_seconds;
const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const stages = dockerfile.split('\n').filter((l) => /^FROM /.test(l));

  it('is multi-stage and runs on node:20-bookworm-slim as a non-root user, with SWITCHBOARD_HOME a volume', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages[stages.length - 1]).toMatch(/^FROM node:20-bookworm-slim\b/);
    const runStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    const user = runStage.match(/^USER (\S+)/m)?.[1];
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)$/);
    expect(runStage).toMatch(/SWITCHBOARD_HOME=\/data/);
    expect(runStage).toMatch(/^VOLUME \["\/data"\]/m);
  });

  it('installs the packed tarball without dev dependencies, and the Debian tools media needs', () => {
    expect(dockerfile).toMatch(/npm pack/);
    expect(dockerfile).toMatch(/npm install --omit=dev/);
    expect(dockerfile.slice(dockerfile.lastIndexOf('\nFROM '))).toMatch(/apt-get install[^\n]*\bffmpeg\b/);
  });

  it('checks its health on /healthz and stops with SIGTERM', () => {
    expect(dockerfile).toMatch(/^HEALTHCHECK [\s\S]*?127\.0\.0\.1:8788\/healthz/m);
    expect(dockerfile).toMatch(/^STOPSIGNAL SIGTERM/m);
  });
});

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml')) as {
    services: Record<string, { image?: string; build?: string; environment?: Record<string, string>; stop_grace_period?: string; depends_on?: Record<string, unknown> }>;
  };

  it('runs Switchboard on PostgreSQL, waiting for it, and gives running answers longer than the grace period to finish', () => {
    expect(compose.services.postgres.image).toMatch(/^postgres:/);
    const sb = compose.services.switchboard;
    expect(sb.environment?.DATABASE_URL).toMatch(/^postgres:\/\/[^@]+@postgres:5432\//);
    expect(sb.depends_on).toHaveProperty('postgres');
    const seconds = Number(sb.stop_grace_period?.replace(/s$/, ''));
    expect(seconds).toBeGreaterThan(defaultGrace);
  });
});

describe('deploy/switchboard.service', () => {
  const unit = read('deploy/switchboard.service');

  it('runs the compiled bin as its own user, restarts on failure, and waits longer than the grace period on stop', () => {
    expect(unit).toMatch(/^ExecStart=\S*node \S*\/bin\/switchboard\.js start$/m);
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(unit).toMatch(/^User=switchboard$/m);
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
    expect(Number(unit.match(/^TimeoutStopSec=(\d+)$/m)?.[1])).toBeGreaterThan(defaultGrace);
  });

  it.skipIf(!hasSystemdAnalyze)(`passes systemd-analyze verify${hasSystemdAnalyze ? '' : ' (skipped: systemd-analyze is not installed)'}`, () => {
    const r = spawnSync('systemd-analyze', ['verify', join(root, 'deploy', 'switchboard.service')], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/switchboard\.service:\d+:/); // no complaint about a line of the unit
  });
});
