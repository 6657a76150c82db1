/** The embedded default without SMTP_URL: each mail becomes an `.eml` file in `$SWITCHBOARD_HOME/outbox/`. */
import { mkdir, rename, writeFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** `20260105T090000123Z` — sorts by time, safe in file names. */
function stamp(now: Date): string {
  return now.toISOString().replace(/[-:]/g, '').replace('.', '');
}

/**
 * Writes the raw message as `<dir>/<timestamp>-<id>.eml`, atomically (temp file + rename), so a
 * reader polling the folder never sees half a message. Returns the file path.
 */
export async function writeEml(dir: string, id: number, raw: Buffer, now: Date): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${stamp(now)}-${id}.eml`);
  const temp = join(dir, `.${stamp(now)}-${id}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temp, raw, { mode: 0o600 });
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return path;
}
