import { randomInt } from 'node:crypto';
import type { Runner } from './db.js';
import type { PlatformId } from '../../platform/ids.js';
import type { PairingRepo, PairingRequest, PendingPairing } from '../../core/store/types.js';
import { PAIRING } from '../rows.js';


/**
 * Pairing (ARCHITECTURE.md §4) on the shared engine. A request runs under a transaction-scoped advisory lock
 * per platform, so two instances answering two strangers at once still keep "at most 3 pending".
 */
export class PgPairingRepo implements PairingRepo {
  constructor(private readonly run: Runner) {}

  async isPaired(platform: PlatformId, userId: string): Promise<boolean> {
    return (await this.run.rows('SELECT 1 FROM paired_users WHERE platform = $1 AND user_id = $2', [platform, userId])).length > 0;
  }

  async request(platform: PlatformId, userId: string, chatId: string, now: number): Promise<PairingRequest> {
    return this.run.atomic(async (run): Promise<PairingRequest> => {
      await run.exec("SELECT pg_advisory_xact_lock(hashtext('switchboard:pairing:' || $1))", [platform]);
      const [mine] = await run.rows<{ code: string; created_at: number }>(
        "SELECT code, created_at FROM pairing_codes WHERE platform = $1 AND user_id = $2 AND status = 'pending' AND expires_at > $3 ORDER BY created_at DESC, seq DESC LIMIT 1",
        [platform, userId, now],
      );
      if (mine && now - mine.created_at < PAIRING.requestEveryMs) return { status: 'recent', code: mine.code };
      const [{ n }] = await run.rows<{ n: number }>(
        "SELECT COUNT(*) AS n FROM pairing_codes WHERE platform = $1 AND status = 'pending' AND expires_at > $2 AND user_id <> $3",
        [platform, now, userId],
      );
      if (n >= PAIRING.maxPendingPerPlatform) return { status: 'full' };
      await run.exec("UPDATE pairing_codes SET status = 'replaced' WHERE platform = $1 AND user_id = $2 AND status = 'pending'", [platform, userId]);
      for (;;) {
        const code = Array.from({ length: 8 }, () => PAIRING.alphabet[randomInt(PAIRING.alphabet.length)]).join('');
        const inserted = await run.exec(
          `INSERT INTO pairing_codes (code, platform, user_id, chat_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (code) DO NOTHING`,
          [code, platform, userId, chatId, now, now + PAIRING.codeTtlMs],
        );
        if (inserted === 1) return { status: 'issued', code };
      }
    });
  }

  async approve(code: string, now: number): Promise<{ platform: PlatformId; userId: string } | null> {
    const normalized = code.trim().toUpperCase();
    return this.run.atomic(async (run) => {
      const [row] = await run.rows<{ platform: PlatformId; user_id: string }>(
        "UPDATE pairing_codes SET status = 'approved' WHERE code = $1 AND status = 'pending' AND expires_at > $2 RETURNING platform, user_id",
        [normalized, now],
      );
      if (!row) return null;
      await run.exec(
        `INSERT INTO paired_users (platform, user_id, approved_at) VALUES ($1, $2, $3)
         ON CONFLICT (platform, user_id) DO UPDATE SET approved_at = excluded.approved_at`,
        [row.platform, row.user_id, now],
      );
      return { platform: row.platform, userId: row.user_id };
    });
  }

  async deny(code: string): Promise<boolean> {
    return (await this.run.exec("UPDATE pairing_codes SET status = 'denied' WHERE code = $1 AND status = 'pending'", [code.trim().toUpperCase()])) === 1;
  }

  async list(now: number): Promise<PendingPairing[]> {
    return this.run.rows<PendingPairing & { [column: string]: unknown }>(
      `SELECT code, platform, user_id AS "userId", expires_at AS "expiresAt" FROM pairing_codes
       WHERE status = 'pending' AND expires_at > $1 ORDER BY created_at, seq`,
      [now],
    );
  }
}
