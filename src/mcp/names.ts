/**
 * MCP tool names as the providers accept them (ARCHITECTURE.md §16): `<server>__<tool>`, characters
 * [a-zA-Z0-9_-] only (Anthropic's pattern, and OpenAI's), at most 64 (OpenAI's limit, the tighter one).
 */
import { createHash } from 'node:crypto';

export const MAX_TOOL_NAME = 64;
const UNSAFE = /[^a-zA-Z0-9_-]/g;
const HAS_UNSAFE = /[^a-zA-Z0-9_-]/;

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/**
 * The names of one server's tools, given in the server's order: each the same on every start for
 * the same list. A name that had to be changed (characters replaced, cut, or the same as another
 * once replaced) ends in a short hash of the tool's real name, so it stays unique and stable.
 */
export function providerToolNames(server: string, tools: readonly string[], taken: ReadonlySet<string> = new Set()): Map<string, string> {
  const names = new Map<string, string>();
  const used = new Set(taken);
  // Tools whose names need no change claim them first, so they never depend on the others.
  const plain = (tool: string) => `${server}__${tool}`;
  const needsChange = (tool: string) => HAS_UNSAFE.test(plain(tool)) || plain(tool).length > MAX_TOOL_NAME;
  for (const tool of tools) {
    if (!needsChange(tool) && !used.has(plain(tool))) {
      names.set(tool, plain(tool));
      used.add(plain(tool));
    }
  }
  for (const tool of tools) {
    if (names.has(tool)) continue;
    const suffix = `_${shortHash(`${server}\u0000${tool}`)}`;
    let name = plain(tool).replace(UNSAFE, '_').slice(0, MAX_TOOL_NAME - suffix.length) + suffix;
    for (let n = 2; used.has(name); n++) name = `${name.slice(0, MAX_TOOL_NAME - String(n).length - 1)}_${n}`;
    names.set(tool, name);
    used.add(name);
  }
  return names;
}
