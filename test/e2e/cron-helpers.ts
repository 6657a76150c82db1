/** Shared pieces of the cron end-to-end tests: config entries, request inspection, run claims. */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { RecordedRequest } from '../fakes/model.js';

export type ChatMessage = { role: string; content: string | null };

export function messagesOf(req: RecordedRequest): ChatMessage[] {
  return req.body.messages as ChatMessage[];
}

/** The trailing ephemeral message (OpenAI: a system message after the history); '' when there is none. */
export function tailOf(req: RecordedRequest): string {
  const last = messagesOf(req).at(-1)!;
  return last.role === 'system' ? (last.content ?? '') : '';
}

/** One `cron:` entry of the config file (ARCHITECTURE.md §4b). */
export function cronEntry(id: string, deliver: string, prompt: string, schedule = '0 9 * * 1-5', timezone: string | null = 'Europe/Berlin'): string {
  return [
    `  - id: ${id}`,
    `    schedule: "${schedule}"`,
    ...(timezone ? [`    timezone: ${timezone}`] : []),
    `    prompt: "${prompt}"`,
    `    deliver: ${deliver}`,
  ].join('\n');
}

export interface Claim {
  slot: number;
  status: string;
}

/** Slots of a job claimed in SQLite, oldest first, with how their run ended. */
export function claimsOf(home: string, jobId: string): Claim[] {
  const db = new Database(join(home, 'state.db'), { readonly: true });
  try {
    return db.prepare('SELECT slot, status FROM cron_runs WHERE job_id = ? ORDER BY slot').all(jobId) as Claim[];
  } finally {
    db.close();
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
