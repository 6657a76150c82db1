/**
 * The `session_search` tool (ARCHITECTURE.md §7b): full-text search over this person's other sessions — on
 * every platform linked to them through config `people:`, never the current session, never anyone
 * else's. Broad questions (an overview is asked for, or the matches spread over several sessions)
 * also get a model-written summary of the top sessions; the summary model is
 * `model.summary_name` when configured.
 */
import { z } from 'zod';
import { searchSessions, type SessionSearchResult } from '../search/search.js';
import { summariseSessions, SUMMARY_SESSIONS, type SessionToSummarise } from '../search/summarize.js';
import { ModelError, oneLine } from '../errors.js';
import type { SearchHit } from '../store/types.js';
import type { Tool, ToolContext } from './types.js';
import { defineTool } from './args.js';
import { asData } from './data.js';

export const DEFAULT_LIMIT = 5;
export const MAX_LIMIT = 20;

const argsSchema = z.object({
  query: z.string().trim().min(1, 'give the words or question to search for').max(500),
  limit: z.number().int().min(1).max(MAX_LIMIT).nullish(),
});

const PARAMETERS: Record<string, unknown> = {
  type: 'object',
  properties: {
    query: {
      type: 'string',
      description:
        'Words to look for in earlier conversations with this person (e.g. "cat name", "flight to Lisbon"), or a broad question such as "what did we talk about last week".',
    },
    limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: `Most matches to return (default ${DEFAULT_LIMIT}).` },
  },
  required: ['query'],
  additionalProperties: false,
};

export interface SessionSearchToolOptions {
  /** Ask the model for a summary on broad questions (default true). */
  summarise?: boolean;
}

function when(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function hitLine(hit: SearchHit, i: number): string {
  const snippet = hit.snippet.replace(/\s+/g, ' ').trim();
  return `${i + 1}. ${when(hit.createdAt)} · session ${hit.sessionId} (${hit.platform}) · ${hit.role}: ${snippet}`;
}

function hitList(result: SessionSearchResult): string {
  const sessionCount = result.sessions.length;
  const head = `Matches for ${result.terms.map((t) => `"${t}"`).join(', ')} in ${sessionCount} earlier session${sessionCount === 1 ? '' : 's'} (best first; [brackets] mark the matching words):`;
  return [head, ...result.hits.map(hitLine)].join('\n');
}

function toSummarise(result: SessionSearchResult): SessionToSummarise[] {
  if (result.recent.length) return result.recent.map((s) => ({ ...s, hitIds: [] }));
  return result.sessions.slice(0, SUMMARY_SESSIONS).map((s) => ({
    sessionId: s.sessionId,
    platform: s.platform,
    startedAt: s.startedAt,
    hitIds: s.hits.map((h) => h.messageId),
  }));
}

/** Builds the tool. */
export function createSessionSearchTool(options: SessionSearchToolOptions = {}): Tool {
  const summarise = options.summarise ?? true;
  return defineTool({
    name: 'session_search',
    description:
      "Search this person's earlier conversations (other sessions, on any of their linked platforms) for something said before. Returns ranked matches with date, session and snippet; broad questions also get a short summary of the most relevant sessions.",
    parameters: PARAMETERS,
    schema: argsSchema,
    async run(args, ctx: ToolContext): Promise<string> {
      const { query } = args;
      const limit = args.limit ?? DEFAULT_LIMIT;
      const result = await searchSessions(ctx.store, ctx.personKey, query, { excludeSessionId: ctx.sessionId, limit });
      if (!result.hits.length && !result.recent.length) {
        return result.terms.length
          ? `No earlier session mentions ${result.terms.map((t) => `"${t}"`).join(' or ')}.`
          : 'There are no earlier sessions with this person yet.';
      }
      // Hits come from other sessions: text this turn's person did not write here taints the turn (§17).
      if (result.hits.length) ctx.taint?.mark('other_session', 'session_search');
      // Hits quote what people wrote earlier: framed as data, so a quoted instruction carries no authority.
      const list = result.recent.length
        ? ['Most recent earlier sessions:', ...result.recent.map((s, i) => `${i + 1}. ${when(s.startedAt)} · session ${s.sessionId} (${s.platform})`)].join('\n')
        : asData('earlier sessions', hitList(result));
      if (!result.broad || !summarise) return list;
      try {
        const summary = await summariseSessions({
          settings: ctx.settings,
          store: ctx.store,
          provider: ctx.provider,
          personKey: ctx.personKey,
          question: query,
          sessions: toSummarise(result),
          signal: ctx.signal,
        });
        // The summary request is spent on this session: count it, so /usage covers every model call.
        await ctx.store.sessions.addUsage(ctx.sessionId, summary.usage, 1);
        return summary.text ? `${asData('a summary of earlier sessions', `Summary of the most relevant earlier sessions:\n${summary.text}`)}\n\n${list}` : list;
      } catch (error) {
        if (ctx.signal.aborted) throw new ModelError('the turn was stopped');
        ctx.logger.warn('session_search', `summary failed: ${oneLine(error)}`);
        return `(A summary could not be written: ${oneLine(error)}.)\n\n${list}`;
      }
    },
  });
}

/** The `session_search` tool with summaries on. */
export const sessionSearchTool: Tool = createSessionSearchTool();
