import { join } from 'node:path';
import { openDatabase, type Db } from './db.js';
import { SessionRepo } from './sessions.js';
import { MessageRepo } from './messages.js';
import { InboundRepo } from './inbound.js';
import { OutboxRepo } from './outbox.js';

/**
 * Storage behind a narrow interface: one repository per concern. The SQLite implementation owns
 * its schema (migrations.ts); another engine could stand behind the same repositories.
 */
export interface Store {
  readonly db: Db;
  readonly sessions: SessionRepo;
  readonly messages: MessageRepo;
  readonly inbound: InboundRepo;
  readonly outbox: OutboxRepo;
  /** Runs `fn` in one transaction. */
  transaction<T>(fn: () => T): T;
  close(): void;
}

export function openStore(path: string): Store {
  const db = openDatabase(path);
  return {
    db,
    sessions: new SessionRepo(db),
    messages: new MessageRepo(db),
    inbound: new InboundRepo(db),
    outbox: new OutboxRepo(db),
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    close: () => db.close(),
  };
}

export function storePath(home: string): string {
  return join(home, 'state.db');
}
