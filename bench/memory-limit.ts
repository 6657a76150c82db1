/**
 * A memory control group for one benchmark process: the gateway as it runs on a small box (a 512 MB
 * VPS, or a container with a memory limit), where Node sizes V8's heap to the memory it may use
 * rather than to the machine's. Needs a writable cgroup hierarchy with the memory controller
 * (root, cgroup v1 `memory` or v2 with `memory` in the root's subtree_control); otherwise the reason
 * it is not available, which the bench reports as skipped.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface MemoryCgroup {
  /** The group's directory (startCli's `cgroup`). */
  dir: string;
  limitMiB: number;
  /** Removes the group; its processes must have exited. */
  remove(): void;
}

const V1 = '/sys/fs/cgroup/memory';
const V2 = '/sys/fs/cgroup';

export function createMemoryCgroup(limitMiB: number, name = `switchboard-bench-${process.pid}`): MemoryCgroup | { skipped: string } {
  const bytes = String(limitMiB * 1024 * 1024);
  const v2 = existsSync(join(V2, 'cgroup.subtree_control')) && /\bmemory\b/.test(readFileSync(join(V2, 'cgroup.subtree_control'), 'utf8'));
  const root = existsSync(join(V1, 'memory.limit_in_bytes')) ? V1 : v2 ? V2 : null;
  if (!root) return { skipped: 'no cgroup memory controller is mounted here' };
  const dir = join(root, name);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, root === V1 ? 'memory.limit_in_bytes' : 'memory.max'), bytes);
  } catch (error) {
    return { skipped: `cannot create a memory cgroup in ${root} (${(error as NodeJS.ErrnoException).code ?? String(error)}; it needs root)` };
  }
  return {
    dir,
    limitMiB,
    remove: () => {
      try {
        rmdirSync(dir);
      } catch {
        // still in use by a process that has not been reaped yet: left for the next run's mkdir
      }
    },
  };
}
