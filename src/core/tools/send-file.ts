/**
 * The `send_file` tool (ARCHITECTURE.md §7b, §15): sends a real attachment to this chat (in a cron run, to the
 * job's target) with the turn's reply, through the outbox. The file is `path`, inside the workspace
 * (the folder context files come from: `--cwd`, else where `switchboard` was started), or `data`
 * (base64). A path outside the workspace — by `..`, by an absolute path or through a symlink — a
 * missing file, a folder or an empty file is refused with one line the model can act on.
 */
import { open, realpath } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { defineTool } from './args.js';
import type { Tool } from './types.js';

export interface SendFileToolOptions {
  /** The workspace folder: files are sent only from inside it. */
  workspace: string;
  /** Largest file sent, in bytes. */
  maxBytes: number;
}

const argsSchema = z
  .object({
    path: z.string().trim().min(1).max(4096).optional(),
    data: z.string().trim().min(1).optional(),
    name: z.string().trim().min(1).max(200).optional(),
    caption: z.string().max(4000).optional(),
  })
  .refine((a) => (a.path === undefined) !== (a.data === undefined), { message: 'give either `path` (a file in the workspace) or `data` (base64), not both' })
  .refine((a) => a.data === undefined || a.name !== undefined, { message: '`name` is needed with `data` (the file name the recipient sees)', path: ['name'] });

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

function size(n: number): string {
  return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)} MB` : n >= 1000 ? `${Math.round(n / 1000)} kB` : `${n} bytes`;
}

/** Whether `inner` is `folder` or inside it (both resolved). */
function isInside(folder: string, inner: string): boolean {
  const rel = relative(folder, inner);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

type Loaded = { ok: true; data: Uint8Array; name: string } | { ok: false; error: string };

/** Reads a workspace file: the real path (symlinks followed) must stay inside the real workspace. */
async function readWorkspaceFile(options: SendFileToolOptions, path: string): Promise<Loaded> {
  let workspace: string;
  try {
    workspace = await realpath(options.workspace);
  } catch {
    return { ok: false, error: `Error: the workspace folder ${options.workspace} cannot be read.` };
  }
  const asked = resolve(workspace, path);
  if (!isInside(workspace, asked)) return { ok: false, error: `Error: ${path} is outside the workspace (${workspace}); only files in it can be sent.` };
  let real: string;
  try {
    real = await realpath(asked);
  } catch {
    return { ok: false, error: `Error: there is no file ${path} in the workspace.` };
  }
  if (!isInside(workspace, real)) return { ok: false, error: `Error: ${path} links to a place outside the workspace; only files in it can be sent.` };
  // Read through one open handle: what is checked (a file, its size) is what is read.
  let handle;
  try {
    handle = await open(real, 'r');
  } catch {
    return { ok: false, error: `Error: ${path} cannot be read.` };
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { ok: false, error: `Error: ${path} is not a file.` };
    if (stat.size > options.maxBytes) return { ok: false, error: `Error: ${path} is ${size(stat.size)}; files over ${size(options.maxBytes)} are not sent.` };
    const data = await handle.readFile();
    return { ok: true, data, name: basename(real) };
  } finally {
    await handle.close();
  }
}

/** The send_file tool for a workspace. */
export const createSendFileTool = (options: SendFileToolOptions): Tool => ({
  ...defineTool({
    name: 'send_file',
    description:
      'Send a real file (image, document, voice note) to this chat, after your answer. Give `path` (a file in the workspace) or `data` (base64) with `name`; `caption` is optional. In a scheduled run it goes with the report.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'A file in the workspace folder (relative to it, or absolute inside it).' },
        data: { type: 'string', description: 'The file as base64, instead of path.' },
        name: { type: 'string', description: 'The file name the recipient sees (needed with data; default: the file name of path).' },
        caption: { type: 'string', description: 'A short text shown with the file.' },
      },
      additionalProperties: false,
    },
    schema: argsSchema,
    async run(args, ctx): Promise<string> {
      if (!ctx.attach) return 'Error: files cannot be sent from here.';
      let loaded: Loaded;
      if (args.data !== undefined) {
        if (!BASE64.test(args.data)) return 'Error: data: not base64.';
        const data = Buffer.from(args.data, 'base64');
        if (data.length > options.maxBytes) return `Error: data is ${size(data.length)}; files over ${size(options.maxBytes)} are not sent.`;
        loaded = { ok: true, data, name: args.name ?? 'file' };
      } else {
        loaded = await readWorkspaceFile(options, args.path ?? '');
      }
      if (!loaded.ok) return loaded.error;
      if (loaded.data.length === 0) return `Error: ${args.path ?? args.name} is empty (0 bytes); nothing was sent.`;
      const name = args.name ?? loaded.name;
      await ctx.attach({ data: loaded.data, name, ...(args.caption?.trim() ? { caption: args.caption } : {}) });
      return `Sent ${name} (${size(loaded.data.length)}); it goes to the chat with your answer. Do not paste its path or contents into the answer.`;
    },
  }),
  // To this chat (or a cron job's own target) it acts inside the conversation: it has no chat argument.
  actsOutside: false,
});
