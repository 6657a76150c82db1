/**
 * RSS of the compiled `switchboard start` (three doors) after 10,000 messages: benchFootprint from
 * footprint.ts with messages = 10,000 (one checkpoint). Needs `npm run build` first.
 *
 *   node --import tsx bench/rss-10k.ts [messages]
 */
import { benchFootprint } from './footprint.js';

const messages = Number(process.argv[2] ?? 10_000);
const r = await benchFootprint((l) => process.stderr.write(`${l}\n`), messages);
process.stdout.write(`${JSON.stringify({ rssReadyMiB: r.rssReadyMiB, rssAfterMiB: r.rssAfterMiB, messages: r.messages, perSec: r.perSec, coldStartMs: r.coldStartMs, smallBox: r.smallBox })}\n`);
