import { createHash } from 'node:crypto';
import type { ToolSpec } from '../providers/provider.js';
import type { Tool } from './types.js';

/** The tools of a turn, by name. Cron runs are never offered a tool that waits for a human. */
export class ToolRegistry {
  private readonly tools: Map<string, Tool>;
  constructor(tools: readonly Tool[]) {
    this.tools = new Map(tools.map((t) => [t.name, t]));
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  forRun(options: { unattended: boolean }): Tool[] {
    return [...this.tools.values()].filter((t) => !(options.unattended && t.waitsForHuman));
  }

  static specs(tools: readonly Tool[]): ToolSpec[] {
    return tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
  }

  /** Changes when a tool is added, removed or its schema changes: the stored prompt is then rebuilt. */
  static signature(tools: readonly Tool[]): string {
    const h = createHash('sha256');
    for (const t of [...tools].sort((a, b) => a.name.localeCompare(b.name))) h.update(JSON.stringify([t.name, t.description, t.parameters]));
    return h.digest('hex').slice(0, 16);
  }
}
