import { randomInt } from 'node:crypto';
import { prepare, type Runner } from './db.js';
import type { PlatformId } from '../../platform/ids.js';
import type { PairingRepo, PairingRequest, PendingPairing } from '../../core/store/types.js';
import { PAIRING } from '../rows.js';


/**
 * Pairing (ARCHITECTURE.md §4): an unknown sender gets an 8-character code, valid 1 hour, at most 3 pending
 * per platform and one request per user per 10 minutes; the owner approves it with
 * `switchboard pairing approve CODE`.
 */
export class SqlitePairingRepo implements PairingRepo {
  constructor(private readonly run: Runner) {}

  private get db() {
    return this.run.db;
  }

  async isPaired(platform: PlatformId, userId: string): Promise<boolean> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return prepare(this.db, 'SELECT 1 FROM paired_users WHERE platform = ? AND user_id = ?').get(platform, userId) !== undefined;
  }

  async request(platform: PlatformId, userId: string, chatId: string, now: number): Promise<PairingRequest> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return this.db.transaction((): PairingRequest => {
      const mine = prepare(this.db, "SELECT code, created_at FROM pairing_codes WHERE platform = ? AND user_id = ? AND status = 'pending' AND expires_at > ? ORDER BY created_at DESC LIMIT 1")
        .get(platform, userId, now) as { code: string; created_at: number } | undefined;
      if (mine && now - mine.created_at < PAIRING.requestEveryMs) return { status: 'recent', code: mine.code };
      const pending = (
        prepare(this.db, "SELECT COUNT(*) AS n FROM pairing_codes WHERE platform = ? AND status = 'pending' AND expires_at > ? AND user_id != ?").get(platform, now, userId) as { n: number }
      ).n;
      if (pending >= PAIRING.maxPendingPerPlatform) return { status: 'full' };
      prepare(this.db, "UPDATE pairing_codes SET status = 'replaced' WHERE platform = ? AND user_id = ? AND status = 'pending'").run(platform, userId);
      let code: string;
      do {
        code = Array.from({ length: 8 }, () => PAIRING.alphabet[randomInt(PAIRING.alphabet.length)]).join('');
      } while (prepare(this.db, 'SELECT 1 FROM pairing_codes WHERE code = ?').get(code));
      prepare(this.db, 'INSERT INTO pairing_codes (code, platform, user_id, chat_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(code, platform, userId, chatId, now, now + PAIRING.codeTtlMs);
      return { status: 'issued', code };
    })();
  }

  /** Approves a pending, unexpired code. Returns who was approved, or null. */
  async approve(code: string, now: number): Promise<{ platform: PlatformId; userId: string } | null> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    const normalized = code.trim().toUpperCase();
    return this.db.transaction(() => {
      const row = prepare(this.db, "SELECT platform, user_id FROM pairing_codes WHERE code = ? AND status = 'pending' AND expires_at > ?")
        .get(normalized, now) as { platform: PlatformId; user_id: string } | undefined;
      if (!row) return null;
      prepare(this.db, "UPDATE pairing_codes SET status = 'approved' WHERE code = ?").run(normalized);
      prepare(this.db, 'INSERT OR REPLACE INTO paired_users (platform, user_id, approved_at) VALUES (?, ?, ?)').run(row.platform, row.user_id, now);
      return { platform: row.platform, userId: row.user_id };
    })();
  }

  async list(now: number): Promise<PendingPairing[]> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return (
      prepare(this.db, "SELECT code, platform, user_id AS userId, expires_at AS expiresAt FROM pairing_codes WHERE status = 'pending' AND expires_at > ? ORDER BY created_at")
        .all(now) as PendingPairing[]
    );
  }

  async deny(code: string): Promise<boolean> {
    for (let wait = this.run.ready(); wait; wait = this.run.ready()) await wait;
    return prepare(this.db, "UPDATE pairing_codes SET status = 'denied' WHERE code = ? AND status = 'pending'").run(code.trim().toUpperCase()).changes === 1;
  }
}
