import type { Settings } from './settings.js';
import type { Logger } from './logger.js';
import type { PromptFactory } from './agent.js';
import { buildPrompt } from './prompt/builder.js';

/** The prompt factory for a workspace: DESIGN §5 layers, built once per session. */
export function promptFactory(settings: Settings, cwd: string, logger: Logger, ignoreRules = false): PromptFactory {
  return ({ platform, personKey, sessionId, startedAt }) =>
    buildPrompt({ home: settings.home, config: settings.config, platform, personKey, sessionId, startedAt, cwd, logger, ignoreRules });
}
