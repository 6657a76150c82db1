/**
 * What each chat command does (the table beside CHAT_COMMANDS in ../commands.ts). A handler returns
 * the Markdown reply, or null for none; commands skip the session queue.
 */
import type { Settings } from '../settings.js';
import type { SessionRecord, Store } from '../store/types.js';
import type { Usage } from '../messages.js';
import { helpText, type ChatCommand } from '../commands.js';
import type { TurnContext } from './context.js';
import { costOf, formatUsd, pricesOf, type Cost } from '../cost/pricing.js';
import { budgetLeft, spentSince, spentToday } from '../cost/budgets.js';

export interface CommandDeps {
  settings: Settings;
  store: Store;
  now: () => Date;
  /** The model of a conversation (its session's, else its chat's), as the ready line names it (see Agent.modelStatus). */
  modelStatus(ctx: TurnContext, session?: Pick<SessionRecord, 'model'>): Promise<{ ok: boolean; label: string }>;
  /** Whether the session's turn is running, and a way to cancel it. */
  turns: { isRunning(sessionKey: string): boolean; cancel(sessionKey: string): boolean };
  /** A turn waiting for a yes (ARCHITECTURE.md §16): `stop` ends it ("Stopped."), `drop` closes it with its conversation. */
  approvals: { stop(sessionKey: string): Promise<boolean>; drop(sessionKey: string): Promise<boolean> };
}

export type CommandHandler = (ctx: TurnContext, deps: CommandDeps) => Promise<string | null>;

const percent = (part: number, whole: number): number => (whole ? Math.round((100 * part) / whole) : 0);

function formatUsage(u: Pick<Usage, 'inputTokens' | 'outputTokens' | 'cachedTokens'>): string {
  return `${u.inputTokens} in (${u.cachedTokens} cached, ${percent(u.cachedTokens, u.inputTokens)}%), ${u.outputTokens} out`;
}

const help: CommandHandler = async (ctx) => helpText(ctx.message.platform);

export const COMMAND_HANDLERS: Readonly<Record<ChatCommand, CommandHandler>> = {
  start: help,
  help,
  async new(ctx, { store, now, approvals }) {
    const dropped = await approvals.drop(ctx.sessionKey);
    const open = await store.sessions.findOpen(ctx.address);
    if (open) await store.sessions.end(open.id, 'new', now().getTime());
    return dropped ? 'Started a new conversation. The call that waited for your yes was not made.' : 'Started a new conversation.';
  },
  // The cancelled turn itself answers "Stopped." (a turn waiting for a yes too); only an idle session gets a reply here.
  async stop(ctx, { turns, approvals }) {
    if (turns.cancel(ctx.sessionKey)) return null;
    return (await approvals.stop(ctx.sessionKey)) ? null : 'Nothing is running.';
  },
  async status(ctx, { store, modelStatus, turns }) {
    const s = await store.sessions.findOpen(ctx.address);
    const status = await modelStatus(ctx, s);
    const model = status.ok ? status.label.replace(/^(\S+)/, '`$1`') : status.label;
    if (!s) return `No conversation yet. ${status.ok ? `Model: ${model}.` : 'No model is configured or reachable.'}`;
    return [
      `**Session** \`${s.id}\` (started ${new Date(s.startedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
      `**Model** ${model}`,
      `**Prompt** sha256 \`${s.promptSha256.slice(0, 16)}\`, ${s.prompt.length} chars, rebuilt ${s.promptRebuilds}×`,
      `**Cache** ${percent(s.usage.cachedTokens, s.usage.inputTokens)}% of input tokens served from the prompt cache over ${s.requests} request(s)`,
      `**Busy** ${turns.isRunning(ctx.sessionKey) ? 'yes, an answer is being written' : 'no'}`,
    ].join('\n');
  },
  async usage(ctx, { store, settings, now }) {
    const s = await store.sessions.findOpen(ctx.address);
    const total = await store.sessions.usageByPerson(ctx.person);
    const prices = pricesOf(settings.config);
    const costs = { store, prices, defaultModel: settings.model.name, now };
    const today = await spentToday(costs, { personKey: ctx.person });
    const all = await spentSince(costs, 0, { personKey: ctx.person });
    const sessionModel = s ? (s.model ?? settings.model.name) : undefined;
    const sessionPrice = sessionModel ? prices(sessionModel) : undefined;
    const sessionCost = s && sessionPrice ? costOf(s.usage, sessionPrice) : null;
    const money = (c: Cost | null, model?: string) =>
      c ? `; ${formatUsd(c.usd)}${c.savedUsd > 0 ? `, the prompt cache saved ${formatUsd(c.savedUsd)}` : ''}` : model ? `; no price for ${model} (pricing:)` : '';
    const budget = settings.config.budgets.person;
    const left = budget ? budgetLeft(budget, today) : '';
    return [
      `**This conversation**: ${s ? formatUsage(s.usage) + money(sessionCost, sessionModel) : 'nothing yet'}`,
      `**Today** (UTC): ${today.tokens} tokens; ${formatUsd(today.usd)}${left}`,
      `**All your conversations** (${total.sessions}): ${formatUsage(total)}; ${formatUsd(all.usd)}${all.savedUsd > 0 ? `, the prompt cache saved ${formatUsd(all.savedUsd)}` : ''}`,
    ].join('\n');
  },
};
