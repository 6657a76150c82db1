/**
 * Prefix reuse between consecutive model requests of one conversation, from the bytes the model fake
 * recorded: what share of "the previous request plus its answer" the next request starts with.
 */
import type { RecordedRequest } from '../test/fakes/model.js';

/** The messages of a request as the bytes they were sent as (compact JSON keeps key order). */
function messageBytes(messages: unknown[]): string {
  return messages.map((m) => JSON.stringify(m)).join(',');
}

function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * For each request after the first: the previous request's messages (without a trailing ephemeral
 * system message) followed by its answer is what an ideal client resends unchanged; the ratio is how
 * many of those bytes (UTF-8) the next request starts with. 1 = nothing rewritten.
 */
export function prefixRatios(requests: readonly RecordedRequest[], answers: readonly string[]): number[] {
  const ratios: number[] = [];
  for (let i = 1; i < requests.length; i++) {
    const prev = [...((requests[i - 1].body.messages ?? []) as Array<{ role: string }>)];
    if (prev.length > 1 && prev[prev.length - 1].role === 'system') prev.pop(); // the ephemeral tail
    const ideal = messageBytes([...prev, { role: 'assistant', content: answers[i - 1] }]);
    const next = messageBytes((requests[i].body.messages ?? []) as unknown[]);
    ratios.push(Buffer.byteLength(ideal.slice(0, commonPrefix(ideal, next))) / Buffer.byteLength(ideal));
  }
  return ratios;
}
