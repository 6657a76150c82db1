import { createHash } from 'node:crypto';
import type { ToolSpec } from '../providers/provider.js';
import type { Tool } from './types.js';

/**
 * Tools that come and go while the gateway runs (MCP servers, ARCHITECTURE.md §16). `current()` is the
 * same array while nothing changed; a session gets the list current when it starts and keeps it
 * (the tool list is part of the cached prefix), so a change shows from the next session or `/new`.
 */
export interface ToolSource {
  current(): readonly Tool[];
  /** Resolves once the source's first tools are known (servers started or given up on): a new session waits for it. */
  settled?(): Promise<void>;
}

const signatures = new WeakMap<readonly Tool[], string>();
const specLists = new WeakMap<readonly Tool[], ToolSpec[]>();

/** The tools of a turn, by name. Cron runs are never offered a tool that waits for a human. */
export class ToolRegistry {
  private readonly tools: Map<string, Tool>;
  private readonly attended: Tool[];
  private readonly unattended: Tool[];
  constructor(tools: readonly Tool[]) {
    this.tools = new Map(tools.map((t) => [t.name, t]));
    this.attended = [...this.tools.values()];
    this.unattended = this.attended.filter((t) => !t.waitsForHuman);
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  /** The same array for the same kind of run, so its signature is computed once. */
  forRun(options: { unattended: boolean }): Tool[] {
    return options.unattended ? this.unattended : this.attended;
  }

  /** The specs of a tool list, made once per list and frozen (a provider may serialise them once). */
  static specs(tools: readonly Tool[]): ToolSpec[] {
    let known = specLists.get(tools);
    if (!known) {
      known = Object.freeze(tools.map((t) => Object.freeze({ name: t.name, description: t.description, parameters: t.parameters }))) as ToolSpec[];
      specLists.set(tools, known);
    }
    return known;
  }

  /** Changes when a tool is added, removed or its schema changes: the stored prompt is then rebuilt. */
  static signature(tools: readonly Tool[]): string {
    const known = signatures.get(tools);
    if (known) return known;
    const h = createHash('sha256');
    for (const t of [...tools].sort((a, b) => a.name.localeCompare(b.name))) h.update(JSON.stringify([t.name, t.description, t.parameters]));
    const signature = h.digest('hex').slice(0, 16);
    signatures.set(tools, signature);
    return signature;
  }
}
