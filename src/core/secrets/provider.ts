/**
 * The last pass before a request leaves (ARCHITECTURE.md §17): every text of a model request — the
 * system prompt's layers, the replayed history, this turn's tool results, the ephemeral tail — goes
 * through the redactor, whatever door, tool or document it came from. The prompt builder and
 * skill_view already redact what they load (so the console can say where); this wrapper is the one
 * place nothing passes without, so a tool or document added later cannot forget it.
 *
 * Deterministic: a stored history redacted again on the next call gives the same bytes, so the
 * provider's prefix cache still hits. Texts without a hit are passed as the same objects.
 */
import type { ChatMessage } from '../messages.js';
import type { Logger } from '../logger.js';
import type { ModelRequest, PromptLayer, Provider } from '../providers/provider.js';
import type { Redactor } from './redact.js';
import { judgedLine, type SecondOpinion } from '../guard.js';

function layers(redactor: Redactor, list: readonly PromptLayer[], found: (n: number) => void): PromptLayer[] {
  let changed = false;
  const out = list.map((l) => {
    const r = redactor.redact(l.text);
    if (!r.count) return l;
    changed = true;
    found(r.count);
    return { ...l, text: r.text };
  });
  return changed ? out : (list as PromptLayer[]);
}

function message(redactor: Redactor, m: ChatMessage, found: (n: number) => void): ChatMessage {
  const r = redactor.redact(m.content);
  if (!r.count) return m;
  found(r.count);
  return { ...m, content: r.text };
}

/** `request` with every text redacted, and how many secrets were replaced. */
export function redactRequest(redactor: Redactor, request: ModelRequest): { request: ModelRequest; count: number } {
  let count = 0;
  const found = (n: number) => (count += n);
  const system = layers(redactor, request.system, found);
  const messages = request.messages.map((m) => message(redactor, m, found));
  const tail = request.tail === undefined ? undefined : redactor.redact(request.tail);
  if (tail) count += tail.count;
  return { request: { ...request, system, messages, ...(tail ? { tail: tail.text } : {}) }, count };
}

/**
 * Tool results the second opinion (`guard.model`, ARCHITECTURE.md §17) judges an injection, replaced by
 * their BLOCKED line. Verdicts are cached by content, so a result replayed on the next call is
 * replaced the same way (the prefix stays the same) and not sent again.
 */
async function judgeToolResults(request: ModelRequest, opinion: SecondOpinion): Promise<ModelRequest> {
  let changed = false;
  const messages = await Promise.all(
    request.messages.map(async (m) => {
      if (m.role !== 'tool') return m;
      const verdict = await opinion.judge(m.content, { file: `tool result of ${m.name}`, scope: 'tool' });
      if (verdict.verdict !== 'injection') return m;
      changed = true;
      return { ...m, content: judgedLine(`the result of ${m.name}`, verdict.score) };
    }),
  );
  return changed ? { ...request, messages } : request;
}

/** `provider` behind the redactor (and the second opinion on tool results, when configured): no request reaches it unredacted. */
export function redactingProvider(provider: Provider, redactor: Redactor, logger: Logger, secondOpinion?: SecondOpinion): Provider {
  return {
    name: provider.name,
    check: (options) => provider.check(options),
    async complete(request) {
      const { request: safe, count } = redactRequest(redactor, request);
      if (count) logger.debug('secrets', `${count} secret(s) redacted from a model request`);
      return provider.complete(secondOpinion ? await judgeToolResults(safe, secondOpinion) : safe);
    },
  };
}
