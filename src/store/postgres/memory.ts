import type { Runner } from './db.js';
import type { MemoryRepo, MemoryTarget } from '../../core/store/types.js';

/**
 * Memory in the database (ARCHITECTURE.md §9): a person's MEMORY.md / USER.md entries as one row each, so
 * every instance reads the same. A write replaces the row whole, like the atomic file rename.
 */
export class PgMemoryRepo implements MemoryRepo {
  constructor(private readonly run: Runner) {}

  async read(personKey: string, target: MemoryTarget): Promise<string[]> {
    const [row] = await this.run.rows<{ entries: string[] }>('SELECT entries FROM memory WHERE person_key = $1 AND target = $2', [personKey, target]);
    return row?.entries ?? [];
  }

  async write(personKey: string, target: MemoryTarget, entries: readonly string[]): Promise<void> {
    await this.run.exec(
      `INSERT INTO memory (person_key, target, entries, updated_at) VALUES ($1, $2, $3::text[], $4)
       ON CONFLICT (person_key, target) DO UPDATE SET entries = excluded.entries, updated_at = excluded.updated_at`,
      [personKey, target, [...entries], Date.now()],
    );
  }
}
