/**
 * Negation per language (one module each, src/guard/negation/<lang>.ts): a prose intent pattern
 * whose match its language negates is exempt (src/guard/exempt.ts).
 */
import type { Negation } from './types.js';
import { ar } from './ar.js';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { hi } from './hi.js';
import { it } from './it.js';
import { ja } from './ja.js';
import { ko } from './ko.js';
import { pt } from './pt.js';
import { ru } from './ru.js';
import { tr } from './tr.js';
import { uk } from './uk.js';
import { zh } from './zh.js';

const BY_LANGUAGE: Readonly<Record<string, Negation>> = { ar, de, en, es, fr, hi, it, ja, ko, pt, ru, tr, uk, zh };

export { en };

/** Negation inside a match (verb-final or object-first languages). */
export const NEGATION_INSIDE: Readonly<Record<string, RegExp>> = Object.fromEntries(Object.entries(BY_LANGUAGE).flatMap(([lang, n]) => (n.inside ? [[lang, n.inside]] : [])));

/** Negation in each language, looked for in the few words before a prose match. */
export const NEGATION_BEFORE: Readonly<Record<string, RegExp>> = Object.fromEntries(Object.entries(BY_LANGUAGE).flatMap(([lang, n]) => (n.before ? [[lang, n.before]] : [])));

/** Negation right after the match, for languages that put it on the verb (Japanese, Korean, Turkish, Hindi). */
export const NEGATION_AFTER: Readonly<Record<string, RegExp>> = Object.fromEntries(Object.entries(BY_LANGUAGE).flatMap(([lang, n]) => (n.after ? [[lang, n.after]] : [])));
