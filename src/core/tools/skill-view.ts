/**
 * The `skill_view` tool (ARCHITECTURE.md §7b): the body of a skill from the index (SKILL.md without its
 * frontmatter). Skills are looked up in the index by name, never by joining the argument into a
 * path, so `../` in a name cannot reach other files. The body has its secrets redacted (ARCHITECTURE.md
 * §17: a private key or AWS key kept in a skill never reaches the model) and is threat-scanned (scope
 * `system`) like every other text that reaches the model from the home folder, and framed as data.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { findSkill, listSkills, parseSkillFile } from '../prompt/skills.js';
import { guardText, type Guard } from '../guard.js';
import { createRedactor } from '../secrets/redact.js';
import { knownSecrets } from '../secrets/known.js';
import type { Tool, ToolContext } from './types.js';
import { defineTool } from './args.js';
import { asData } from './data.js';

const argsSchema = z.object({ name: z.string().trim().min(1, 'give the name of a skill from the Skills list').max(200) });

/** The skill_view tool; `guard` scans each body before the model sees it. */
export const createSkillViewTool = (guard: Guard): Tool =>
  defineTool({
    name: 'skill_view',
    description: 'Read a skill (a saved procedure) from the Skills list in full, by its name. Read it before doing a task it matches.',
    parameters: {
      type: 'object',
      properties: { name: { type: 'string', description: 'The skill name as listed under Skills.' } },
      required: ['name'],
      additionalProperties: false,
    },
    schema: argsSchema,
    async run(args, ctx: ToolContext): Promise<string> {
      const skills = listSkills(ctx.settings.home);
      const skill = findSkill(skills, args.name);
      if (!skill) {
        const available = skills.length ? `Available skills: ${skills.map((s) => s.name).join(', ')}.` : 'No skills are installed.';
        return `Error: no skill named "${args.name}". ${available}`;
      }
      let body: string;
      try {
        body = parseSkillFile(readFileSync(skill.path, 'utf8')).body;
      } catch (error) {
        return `Error: skill "${skill.name}" could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`;
      }
      if (!body) return `Skill "${skill.name}" has no body; its description is: ${skill.description || '(none)'}`;
      const file = `skills/${skill.folder}/SKILL.md`;
      const clean = createRedactor(knownSecrets(ctx.settings)).redact(body);
      if (clean.count) ctx.logger.info('secrets', `${clean.count} secret(s) redacted in ${file} (${clean.kinds.join(', ')})`);
      return asData(file, guardText(guard, clean.text, { file, scope: 'system', logger: ctx.logger }));
    },
  });
