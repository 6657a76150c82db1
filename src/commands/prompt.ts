import { parseCommandLine, workspace, type CommandIO } from './io.js';
import { loadSettings } from '../core/settings.js';
import { createLogger } from '../core/logger.js';
import { isPlatformId, PLATFORM_IDS } from '../platform/ids.js';
import { UsageError } from '../core/errors.js';
import { personKey } from '../core/identity.js';
import { cronSessionAddress, type SessionAddress } from '../platform/address.js';
import { openData } from '../app-open.js';
import { buildPrompt } from '../core/prompt/builder.js';
import { secondOpinionFor, threatGuard } from '../guard/index.js';
import { settingsRedactor } from '../core/secrets/known.js';
import { sha256 } from '../core/agent.js';
import type { PromptLayer } from '../core/providers/provider.js';

export const usage = `usage: switchboard prompt --platform P --user U [--chat C] [--thread T] [--cwd DIR] [--ignore-rules] [--json]

Prints the system prompt of that session: the stored one when the session is open, else a preview
built as a new session would get it.

options:
  --platform P     one of ${PLATFORM_IDS.join(', ')}
  --user U         the user's id on that platform (cli: local, the default there)
  --chat C         the chat id (default: the user's own chat; a negative id works as given)
  --thread T       the thread id, where the platform has threads
  --cwd DIR        the workspace folder (default: the current folder)
  --ignore-rules   a preview without context files, memory and the user profile
  --json           print {"layers":[{"name","chars","text"}],"system","sha256"}
  -h, --help       show this help`;

/** Telegram group ids are negative: `--chat -100123` is taken as `--chat=-100123`, not as an option. */
function joinNegativeIds(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const next = argv[i + 1];
    if ((argv[i] === '--chat' || argv[i] === '--user' || argv[i] === '--thread') && next !== undefined && /^-\d+$/.test(next)) {
      out.push(`${argv[i]}=${next}`);
      i++;
    } else out.push(argv[i]);
  }
  return out;
}

/**
 * `switchboard prompt --platform P --user U [--chat C] [--cwd DIR] [--ignore-rules] [--json]`:
 * the stored prompt of that session when one is open, else a preview built exactly as a new
 * session would get it (session id `preview`).
 */
export async function run(argv: string[], io: CommandIO): Promise<number> {
  const { values } = parseCommandLine('prompt', usage, {
    args: joinNegativeIds(argv),
    options: {
      platform: { type: 'string' },
      user: { type: 'string' },
      chat: { type: 'string' },
      thread: { type: 'string' },
      cwd: { type: 'string' },
      'ignore-rules': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const platform = values.platform;
  if (!platform) throw new UsageError(`prompt: --platform is required (one of ${PLATFORM_IDS.join(', ')})`);
  if (!isPlatformId(platform)) throw new UsageError(`prompt: unknown platform '${platform}' (one of ${PLATFORM_IDS.join(', ')})`);
  const user = values.user ?? (platform === 'cli' ? 'local' : undefined);
  if (!user) throw new UsageError('prompt: --user is required');
  const settings = loadSettings(io.env);
  const logger = createLogger({ secrets: settings.secrets, level: 'warn' });
  const cwd = workspace(values.cwd, io.cwd);
  const ignoreRules = values['ignore-rules'] ?? false;
  const person = personKey(settings.config, platform, user);
  const address: SessionAddress =
    platform === 'cron'
      ? cronSessionAddress(user)
      : { platform, chatId: values.chat ?? user, ...(values.thread ? { threadId: values.thread } : {}), userId: user };

  // Inspect only: an existing database is read for the stored prompt, none is created. Otherwise
  // (and with --ignore-rules) an empty in-memory database stands in for it, so the preview still
  // reads the memory files.
  const store = await openData(settings, { mode: ignoreRules ? 'scratch' : 'read' });
  let layers: PromptLayer[] | null = null;
  let text = '';
  try {
    if (!ignoreRules) {
      let session = await store.sessions.findOpen(address);
      // Without --chat, a user's only open session on that platform (a Discord or Slack DM has its own chat id).
      if (!session && !values.chat && platform !== 'cron') {
        const open = await store.sessions.findOpenForUser(platform, user);
        if (open.length === 1) session = open[0];
      }
      if (session) {
        layers = session.promptLayers;
        text = session.prompt;
      }
    }
    if (!layers) {
      const built = await buildPrompt({
        home: settings.home,
        memory: store.memory,
        config: settings.config,
        platform,
        address,
        personKey: person,
        sessionId: 'preview',
        startedAt: new Date(),
        cwd,
        logger,
        ignoreRules,
        guard: threatGuard,
        redactor: settingsRedactor(settings),
        secondOpinion: secondOpinionFor(settings, logger),
      });
      layers = built.layers;
      text = built.text;
    }
  } finally {
    await store.close();
  }
  if (values.json) {
    const out = { layers: layers.map((l) => ({ name: l.name, chars: l.text.length, text: l.text })), system: text, sha256: sha256(text) };
    io.stdout.write(JSON.stringify(out) + '\n');
  } else {
    io.stdout.write(text.endsWith('\n') ? text : text + '\n');
  }
  return 0;
}
