/**
 * The `cron` tool (ARCHITECTURE.md §7b): a person manages their own scheduled jobs from chat ("every Monday
 * at 9 send me …"). Jobs are stored beside the config file's; config jobs are read-only here, and
 * nobody sees or changes another person's jobs. User mistakes come back as a result line starting
 * with "Error:" so the model can correct itself.
 */
import { z } from 'zod';
import { CronSchedule, scheduleProblem, isValidTimeZone } from '../cron/schedule.js';
import { describeTime, effectiveZone } from '../cron/format.js';
import type { CronJob } from '../cron/types.js';
import type { CronRepo } from '../store/types.js';
import { isDeliverable } from '../../platform/ids.js';
import {
  addressOf,
  AddressError,
  DELIVERABLE_FORMS,
  formatAddress,
  parseDeliverableAddress,
  type Address,
  type DeliverableAddress,
} from '../../platform/address.js';
import type { Tool, ToolContext } from './types.js';
import { defineTool } from './args.js';

/** Jobs one person may hold, so a runaway conversation cannot flood the scheduler. */
export const MAX_JOBS_PER_PERSON = 25;
const ID_PATTERN = /^[a-z0-9-]+$/;
const ID_MAX = 40;

const argsSchema = z.object({
  action: z.enum(['create', 'list', 'pause', 'resume', 'remove']),
  id: z.string().nullish(),
  schedule: z.string().nullish(),
  prompt: z.string().nullish(),
  deliver: z.string().nullish(),
  timezone: z.string().nullish(),
});
type Args = z.infer<typeof argsSchema>;

const PARAMETERS: Record<string, unknown> = {
  type: 'object',
  properties: {
    action: { type: 'string', enum: ['create', 'list', 'pause', 'resume', 'remove'], description: 'What to do.' },
    schedule: {
      type: 'string',
      description:
        'create: node-cron pattern "minute hour day-of-month month weekday", optionally with a leading seconds field; e.g. "0 9 * * 1" = Mondays 09:00.',
    },
    prompt: { type: 'string', description: 'create: the task to run each time, written as an instruction that needs no follow-up questions.' },
    deliver: {
      type: 'string',
      description: `create: where to send the report, one of ${DELIVERABLE_FORMS}. Default: this chat.`,
    },
    timezone: { type: 'string', description: 'create: IANA time zone such as Europe/Berlin. Default: the server time zone.' },
    id: { type: 'string', description: 'pause/resume/remove: the job id (from list). create: optional id, a-z 0-9 and -.' },
  },
  required: ['action'],
  additionalProperties: false,
};

/** A job id from the prompt's first words: lowercase a-z0-9 joined by '-', unique among existing ids. */
export function jobIdFromPrompt(prompt: string, taken: (id: string) => boolean): string {
  const words = prompt
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, ' ')
    .split(/[\s-]+/)
    .filter(Boolean);
  let base = '';
  for (const w of words) {
    const next = base ? `${base}-${w}` : w;
    if (next.length > 30) break;
    base = next;
    if (base.split('-').length >= 5) break;
  }
  if (!base) base = (words[0] ?? 'job').slice(0, 30) || 'job';
  if (!taken(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken(candidate)) return candidate;
  }
}

function describeJob(job: CronJob, now: Date): string {
  const zone = effectiveZone(job.timezone);
  let next = 'paused';
  if (!job.paused) {
    try {
      const slot = new CronSchedule(job.schedule, job.timezone, job.id).next(now);
      next = slot ? `next run ${describeTime(slot.getTime(), job.timezone)} ${zone}` : 'never runs again';
    } catch {
      next = 'invalid schedule';
    }
  }
  const last = job.lastRunAt !== null ? `; last run ${describeTime(job.lastRunAt, job.timezone)}: ${job.lastStatus ?? '?'}${job.lastResult ? ` (${job.lastResult})` : ''}` : '';
  return `- ${job.id}: "${job.schedule}" (${zone}), ${next}; delivers to ${formatAddress(job.deliver)}; task: ${job.prompt}${last}`;
}

/**
 * Where a job delivers: the address the tool was given, else the chat it was asked from. An error
 * result (a string) when the given address is malformed or this chat cannot receive reports.
 */
export function deliverTarget(given: string | null | undefined, replyAddress: Address): DeliverableAddress | string {
  const text = given?.trim();
  if (text) {
    try {
      return parseDeliverableAddress(text);
    } catch (error) {
      if (!(error instanceof AddressError)) throw error;
      // The parser names the platform's own form for a malformed id; the model also learns the others.
      const forms = error.message.includes(DELIVERABLE_FORMS) ? '' : ` A report can go to ${DELIVERABLE_FORMS}.`;
      return `Error: ${error.message}.${forms}`;
    }
  }
  const here = formatAddress(replyAddress);
  if (!isDeliverable(replyAddress.platform)) {
    const what = replyAddress.platform === 'cli' ? 'the terminal' : 'a scheduled run';
    return `Error: this chat (${here}, ${what}) cannot receive scheduled reports; give "deliver" as one of ${DELIVERABLE_FORMS}.`;
  }
  try {
    // The chat's own address, checked as if it had been typed: the stored form must be one a person can name.
    return parseDeliverableAddress(formatAddress(addressOf(replyAddress)));
  } catch (error) {
    if (!(error instanceof AddressError)) throw error;
    return `Error: this chat (${here}) cannot be named as a delivery target; give "deliver" as one of ${DELIVERABLE_FORMS}.`;
  }
}

/**
 * Least privilege for `deliver`, whatever the wording of the request (ARCHITECTURE.md §7b): a job reports
 * only to the person who asked — the chat it was asked from, their own id on that platform, their
 * linked ids in config `people:` — unless the operator's `cron_targets` names the target (or is "*").
 * So a hijacked turn cannot schedule the conversation to someone else's chat or inbox.
 */
export function mayDeliverTo(target: DeliverableAddress, ctx: Pick<ToolContext, 'settings' | 'replyAddress' | 'session' | 'personKey'>): boolean {
  const same = (a: Address) => a.platform === target.platform && canonicalChat(a) === target.chatId;
  if (same(ctx.replyAddress)) return true;
  const own: Address[] = [{ platform: ctx.session.platform, chatId: ctx.session.userId }];
  const { people, cron_targets: allowed } = ctx.settings.config;
  for (const ref of people[ctx.personKey] ?? []) {
    const colon = ref.indexOf(':');
    own.push({ platform: ref.slice(0, colon) as Address['platform'], chatId: ref.slice(colon + 1) });
  }
  if (own.some(same)) return true;
  return allowed.some((a) => a === '*' || (a.platform === target.platform && a.chatId === target.chatId));
}

function canonicalChat(a: Address): string {
  return a.platform === 'email' ? a.chatId.toLowerCase() : a.chatId;
}

export interface CronToolOptions {
  /** Called after a job is created, paused, resumed or removed (e.g. the scheduler's refresh()). */
  onChange?: () => void;
}

/** Builds the tool; `onChange` lets a running scheduler pick up changes at once. */
export function createCronTool(options: CronToolOptions = {}): Tool {
  const changed = () => options.onChange?.();

  /** Config jobs are reserved even before a gateway has synced them into the table. */
  function isConfigJob(ctx: ToolContext, id: string): boolean {
    return ctx.settings.config.cron.some((j) => j.id === id);
  }

  async function findOwn(repo: CronRepo, ctx: ToolContext, id: string | null | undefined): Promise<CronJob | string> {
    if (!id) return 'Error: give the job id (use action "list" to see your jobs).';
    const job = await repo.get(id);
    if (job?.source === 'config' || isConfigJob(ctx, id)) return `Error: job '${id}' comes from the config file and can only be changed there.`;
    if (!job || job.owner !== ctx.personKey) return `Error: you have no cron job '${id}' (use action "list" to see your jobs).`;
    return job;
  }

  async function create(ctx: ToolContext, args: Args): Promise<string> {
    const schedule = args.schedule?.trim();
    const prompt = args.prompt?.trim();
    if (!schedule) return 'Error: "schedule" is required to create a job, e.g. "0 9 * * 1-5" for weekdays at 09:00.';
    if (!prompt) return 'Error: "prompt" is required to create a job: the task to run each time.';
    const problem = scheduleProblem(schedule);
    if (problem) return `Error: invalid schedule '${schedule}' (${problem}).`;
    const timezone = args.timezone?.trim() || null;
    if (timezone && !isValidTimeZone(timezone)) return `Error: unknown time zone '${timezone}'; use an IANA name such as Europe/Berlin or UTC.`;
    const deliver = deliverTarget(args.deliver, ctx.replyAddress);
    if (typeof deliver === 'string') return deliver;
    if (!mayDeliverTo(deliver, ctx)) {
      return `Error: a job may deliver only to you: this chat or your own linked addresses; ${formatAddress(deliver)} is someone else's, and the operator's config (cron_targets) does not allow it. Leave "deliver" out to report here.`;
    }
    const requestedId = args.id?.trim();
    if (requestedId && (!ID_PATTERN.test(requestedId) || requestedId.length > ID_MAX)) {
      return `Error: job ids use a-z, 0-9 and - (at most ${ID_MAX} characters); '${requestedId}' does not.`;
    }
    const at = ctx.now().getTime();
    // The checks and the insert in one transaction: two creates at once cannot pass the limit or take one id.
    const outcome = await ctx.store.transaction(async (tx): Promise<CronJob | string> => {
      if ((await tx.cron.listByOwner(ctx.personKey)).length >= MAX_JOBS_PER_PERSON) {
        return `Error: you already have ${MAX_JOBS_PER_PERSON} jobs; remove one first.`;
      }
      const taken = new Set((await tx.cron.list()).map((j) => j.id));
      for (const j of ctx.settings.config.cron) taken.add(j.id);
      if (requestedId && taken.has(requestedId)) return `Error: a job '${requestedId}' already exists; choose another id or leave it out.`;
      const id = requestedId || jobIdFromPrompt(prompt, (candidate) => taken.has(candidate));
      return tx.cron.insertChatJob({ id, owner: ctx.personKey, schedule, timezone, prompt, deliver }, at);
    });
    if (typeof outcome === 'string') return outcome;
    changed();
    return `Created cron job '${outcome.id}'.\n${describeJob(outcome, ctx.now())}`;
  }

  return defineTool({
    name: 'cron',
    description:
      "Manage this person's scheduled jobs: a job runs the agent on a schedule with nobody present and delivers the report (by default to this chat). Actions: create (schedule, prompt, optional deliver, timezone, id), list, pause, resume, remove (id).",
    parameters: PARAMETERS,
    schema: argsSchema,
    hint: 'Use action create|list|pause|resume|remove.',
    // Creating or changing a job acts outside the conversation (§17); listing does not.
    actsOutside: (raw) => !(typeof raw === 'object' && raw !== null && (raw as { action?: unknown }).action === 'list'),
    async run(args, ctx: ToolContext): Promise<string> {
      const repo = ctx.store.cron;
      switch (args.action) {
        case 'create':
          return create(ctx, args);
        case 'list': {
          const jobs = await repo.listByOwner(ctx.personKey);
          if (!jobs.length) return 'You have no scheduled jobs.';
          return [`Your scheduled jobs (${jobs.length}):`, ...jobs.map((j) => describeJob(j, ctx.now()))].join('\n');
        }
        case 'pause':
        case 'resume': {
          const job = await findOwn(repo, ctx, args.id);
          if (typeof job === 'string') return job;
          const pause = args.action === 'pause';
          if (job.paused === pause) return `Job '${job.id}' is already ${pause ? 'paused' : 'active'}.`;
          await repo.setPaused(job.id, pause, ctx.now().getTime());
          changed();
          if (pause) return `Paused job '${job.id}'.`;
          const resumed = await repo.get(job.id);
          return resumed ? `Resumed job '${job.id}'.\n${describeJob(resumed, ctx.now())}` : `Resumed job '${job.id}'.`;
        }
        case 'remove': {
          const job = await findOwn(repo, ctx, args.id);
          if (typeof job === 'string') return job;
          await repo.remove(job.id);
          changed();
          return `Removed job '${job.id}'.`;
        }
      }
    },
  });
}

/** The `cron` tool with no scheduler hook (a running scheduler also rescans the table every few seconds). */
export const cronTool: Tool = createCronTool();
