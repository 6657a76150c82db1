/**
 * Skills: `$SWITCHBOARD_HOME/skills/<folder>/SKILL.md`, Markdown with YAML frontmatter
 * (`name`, `description`). The prompt carries only the index (layer 4: name and a one-line
 * description, sorted by name); the body is read on demand with the `skill_view` tool.
 *
 * A skill without a usable frontmatter is still listed under its folder name (with no
 * description), so that a hand-written SKILL.md is not silently ignored.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import { normalizeNewlines, stripBom } from './text.js';

/** Longest description shown in the index; longer ones are cut with an ellipsis. */
export const SKILL_DESCRIPTION_CHARS = 200;

export interface Skill {
  /** Frontmatter `name`, else the folder name. */
  name: string;
  /** One line (whitespace collapsed), possibly empty. */
  description: string;
  /** Folder under `skills/`. */
  folder: string;
  /** Absolute path of SKILL.md. */
  path: string;
}

const frontmatterSchema = z.looseObject({
  name: z.string().trim().min(1).optional(),
  description: z.string().optional(),
});

export interface ParsedSkill {
  frontmatter: { name?: string; description?: string } | null;
  /** The Markdown after the frontmatter. */
  body: string;
}

const FRONTMATTER = /^---[ \t]*\n([\s\S]*?)\n---[ \t]*(?:\n|$)/;

/** Splits SKILL.md into frontmatter and body. Bad YAML gives `frontmatter: null` and the body unchanged. */
export function parseSkillFile(raw: string): ParsedSkill {
  const text = normalizeNewlines(stripBom(raw));
  const m = FRONTMATTER.exec(text);
  if (!m) return { frontmatter: null, body: text.trim() };
  const body = text.slice(m[0].length).trim();
  let data: unknown;
  try {
    data = parseYaml(m[1]);
  } catch {
    return { frontmatter: null, body };
  }
  const parsed = frontmatterSchema.safeParse(data ?? {});
  if (!parsed.success) return { frontmatter: null, body };
  return { frontmatter: { name: parsed.data.name, description: parsed.data.description }, body };
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SKILL_DESCRIPTION_CHARS ? `${flat.slice(0, SKILL_DESCRIPTION_CHARS - 1).trimEnd()}…` : flat;
}

export function skillsDir(home: string): string {
  return join(home, 'skills');
}

/** Lists the skills of a home, sorted by name (code-unit order, so the index is the same everywhere). */
export function listSkills(home: string, logger?: Logger): Skill[] {
  const dir = skillsDir(home);
  let folders: string[];
  try {
    folders = readdirSync(dir);
  } catch {
    return [];
  }
  const skills: Skill[] = [];
  for (const folder of folders) {
    const path = join(dir, folder, 'SKILL.md');
    let raw: string;
    try {
      if (!statSync(path).isFile()) continue;
      raw = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    const { frontmatter } = parseSkillFile(raw);
    if (!frontmatter) logger?.warn('prompt', `skills/${folder}/SKILL.md: no valid frontmatter (name, description); listed by folder name`);
    skills.push({ name: oneLine(frontmatter?.name ?? folder), description: oneLine(frontmatter?.description ?? ''), folder, path });
  }
  // Two folders claiming the same name: keep the first folder (by folder name) so lookups are stable.
  skills.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0));
  return skills.filter((s, i) => i === 0 || skills[i - 1].name !== s.name);
}

/** Finds a skill by name (exact, else case-insensitive, else folder name). */
export function findSkill(skills: readonly Skill[], name: string): Skill | undefined {
  const wanted = name.trim();
  return (
    skills.find((s) => s.name === wanted) ??
    skills.find((s) => s.name.toLowerCase() === wanted.toLowerCase()) ??
    skills.find((s) => s.folder === wanted)
  );
}
