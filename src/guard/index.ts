/**
 * The injection guard (ARCHITECTURE.md §5 "Threat scan", §17) behind core's `Guard` interface: patterns in
 * English and 13 more languages, co-occurring signals and a learned classifier (see scan.ts). Only
 * the composition root and the commands that build prompts import this module; core receives the
 * guard as an argument.
 */
import type { Guard, SecondOpinion } from '../core/guard.js';
import type { Settings } from '../core/settings.js';
import type { Logger } from '../core/logger.js';
import { createSecondOpinion } from './second-opinion.js';
import { fileVerdictCache } from './verdict-cache.js';
import { prepareThreatScan, scanText } from './scan.js';

export { prepareThreatScan } from './scan.js';

/** The threat scan as a `Guard`. */
export const threatGuard: Guard = {
  scan: (text, scope) => scanText(text, scope),
  prepare: prepareThreatScan,
};

/**
 * The second opinion of `guard.model` (ARCHITECTURE.md §17), its verdicts cached in the home folder;
 * undefined when the config has none.
 */
export function secondOpinionFor(settings: Pick<Settings, 'config' | 'home'>, logger: Logger, env: NodeJS.ProcessEnv = process.env): SecondOpinion | undefined {
  const config = settings.config.guard.model;
  if (!config) return undefined;
  const apiKey = config.api_key_env ? env[config.api_key_env]?.trim() || undefined : undefined;
  return createSecondOpinion({ config, apiKey, cache: fileVerdictCache(settings.home), logger });
}
