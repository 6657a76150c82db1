/**
 * The injection guard (ARCHITECTURE.md §5 "Threat scan", §17) behind core's `Guard` interface: patterns in
 * English and 13 more languages, co-occurring signals and a learned classifier (see scan.ts). Only
 * the composition root and the commands that build prompts import this module; core receives the
 * guard as an argument.
 */
import type { Guard } from '../core/guard.js';
import { prepareThreatScan, scanText } from './scan.js';

export { prepareThreatScan } from './scan.js';

/** The threat scan as a `Guard`. */
export const threatGuard: Guard = {
  scan: (text, scope) => scanText(text, scope),
  prepare: prepareThreatScan,
};
