import { randomInt } from 'node:crypto';
import { prepare, type Db } from './store/db.js';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // no 0/O, 1/I
const CODE_TTL_MS = 60 * 60_000;
const REQUEST_EVERY_MS = 10 * 60_000;
const MAX_PENDING_PER_PLATFORM = 3;

export type PairingRequest =
  | { status: 'issued'; code: string }
  | { status: 'recent'; code: string }
  | { status: 'full' };

/**
 * Pairing (DESIGN §4): an unknown sender gets an 8-character code, valid 1 hour, at most 3 pending
 * per platform and one request per user per 10 minutes; the owner approves it with
 * `switchboard pairing approve CODE`.
 */
export class Pairing {
  constructor(private readonly db: Db) {}

  isPaired(platform: string, userId: string): boolean {
    return prepare(this.db, 'SELECT 1 FROM paired_users WHERE platform = ? AND user_id = ?').get(platform, userId) !== undefined;
  }

  request(platform: string, userId: string, chatId: string, now: number): PairingRequest {
    return this.db.transaction((): PairingRequest => {
      const mine = prepare(this.db, "SELECT code, created_at FROM pairing_codes WHERE platform = ? AND user_id = ? AND status = 'pending' AND expires_at > ? ORDER BY created_at DESC LIMIT 1")
        .get(platform, userId, now) as { code: string; created_at: number } | undefined;
      if (mine && now - mine.created_at < REQUEST_EVERY_MS) return { status: 'recent', code: mine.code };
      const pending = (
        prepare(this.db, "SELECT COUNT(*) AS n FROM pairing_codes WHERE platform = ? AND status = 'pending' AND expires_at > ? AND user_id != ?").get(platform, now, userId) as { n: number }
      ).n;
      if (pending >= MAX_PENDING_PER_PLATFORM) return { status: 'full' };
      prepare(this.db, "UPDATE pairing_codes SET status = 'replaced' WHERE platform = ? AND user_id = ? AND status = 'pending'").run(platform, userId);
      let code = '';
      do {
        code = Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
      } while (prepare(this.db, 'SELECT 1 FROM pairing_codes WHERE code = ?').get(code));
      prepare(this.db, 'INSERT INTO pairing_codes (code, platform, user_id, chat_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(code, platform, userId, chatId, now, now + CODE_TTL_MS);
      return { status: 'issued', code };
    })();
  }

  /** Approves a pending, unexpired code. Returns who was approved, or null. */
  approve(code: string, now: number): { platform: string; userId: string } | null {
    const normalized = code.trim().toUpperCase();
    return this.db.transaction(() => {
      const row = prepare(this.db, "SELECT platform, user_id FROM pairing_codes WHERE code = ? AND status = 'pending' AND expires_at > ?")
        .get(normalized, now) as { platform: string; user_id: string } | undefined;
      if (!row) return null;
      prepare(this.db, "UPDATE pairing_codes SET status = 'approved' WHERE code = ?").run(normalized);
      prepare(this.db, 'INSERT OR REPLACE INTO paired_users (platform, user_id, approved_at) VALUES (?, ?, ?)').run(row.platform, row.user_id, now);
      return { platform: row.platform, userId: row.user_id };
    })();
  }

  list(now: number): Array<{ code: string; platform: string; userId: string; expiresAt: number }> {
    return (
      prepare(this.db, "SELECT code, platform, user_id AS userId, expires_at AS expiresAt FROM pairing_codes WHERE status = 'pending' AND expires_at > ? ORDER BY created_at")
        .all(now) as Array<{ code: string; platform: string; userId: string; expiresAt: number }>
    );
  }
}
