/**
 * `switchboard render --platform P [--jsonl] [--html]` (ARCHITECTURE.md §3): Markdown on stdin → the chunks
 * that platform would be sent.
 *
 * Output is JSON, so it can be checked by a machine:
 * - without --jsonl: all of stdin is one document; one line `{"chunks":[…]}`.
 * - with --jsonl: each input line `{"markdown":"…"}` gives one output line `{"chunks":[…]}`, in
 *   order; blank input lines are skipped. A line that is not such JSON gives `{"error":"…"}` in its
 *   place, the rest go on, and the exit code is 1.
 * Per platform: telegram — HTML chunks for parse_mode HTML; slack — mrkdwn; discord — Markdown;
 * email — one chunk, the text/plain body (--html: the HTML alternative instead); cli — terminal
 * text without colours. A document with nothing visible gives `[]`. `cron` is not a target (a cron
 * job renders for the platform it delivers to): one line on stderr, exit 2, as for an unknown
 * platform or a bad flag. A long document is rendered as the gateway renders it, on the render
 * worker (src/app-render.ts); when that fails, it is written as is and one line on stderr says so.
 */
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { oneLine } from '../core/errors.js';
import { CommandLineError, parseCommandLine } from './io.js';
import { assertRenderPlatform, RENDER_PLATFORMS, RenderError, type RenderPlatform } from '../render/index.js';
import { createRenderService, type RenderService } from '../app-render.js';

export interface RenderIO {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export const usage = `usage: switchboard render --platform P [--jsonl] [--html]

Markdown on stdin → the chunks that platform would be sent, as one JSON line {"chunks":[...]}.

options:
  -p, --platform P   ${RENDER_PLATFORMS.join(', ')}
  --jsonl            each input line {"markdown":"..."} gives one output line {"chunks":[...]};
                     a line that is not such JSON gives {"error":"..."}, the rest go on, exit 1
  --html             with --platform email: the HTML alternative instead of the text/plain body
  -h, --help         show this help

input with --jsonl (JSON Lines): one JSON object per line, its Markdown as a JSON string (a newline
inside is written \\n); blank lines are skipped; output lines come in input order:
  {"markdown":"# Title\\nSome *text*"}  →  {"chunks":["<b>Title</b>\\n\\nSome <i>text</i>"]}   (--platform telegram)
  {"markdown":"second"}                →  {"chunks":["second"]}
  not json                             →  {"error":"…"}   (the rest go on; exit code 1)`;
const Line = z.object({ markdown: z.string() });

/** The chunks for one document (with --html, e-mail's HTML alternative). */
async function chunksFor(render: RenderService, platform: RenderPlatform, markdown: string, html: boolean): Promise<string[]> {
  const message = await render(platform, markdown);
  if (platform === 'email' && html) return message.html ? [message.html] : [];
  return message.chunks;
}

function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const ok = stream.write(text, (err) => (err ? reject(err) : undefined));
    if (ok) resolve();
    else stream.once('drain', resolve);
  });
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(typeof part === 'string' ? Buffer.from(part) : part);
  return Buffer.concat(parts).toString('utf8');
}

/** Why a JSONL line was refused, in one line. */
function lineError(line: string): string | { markdown: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return 'not valid JSON';
  }
  const parsed = Line.safeParse(value);
  return parsed.success ? parsed.data : 'expected an object {"markdown": "<string>"}';
}

/** Runs the command; argv are the arguments after `render`. Resolves to the exit code. */
export async function run(argv: string[], io: RenderIO): Promise<number> {
  let values: { platform?: string; jsonl?: boolean; html?: boolean };
  try {
    ({ values } = parseCommandLine('render', usage, {
      args: argv,
      options: { platform: { type: 'string', short: 'p' }, jsonl: { type: 'boolean' }, html: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    if (!(error instanceof CommandLineError)) throw error;
    await write(io.stderr, error.text());
    return 2;
  }
  const platform = values.platform;
  if (!platform) {
    await write(io.stderr, `switchboard render: --platform is required (one of ${RENDER_PLATFORMS.join(', ')})\n`);
    return 2;
  }
  try {
    assertRenderPlatform(platform);
  } catch (error) {
    // The renderer's refusal (no such platform, or cron) is this command's usage error.
    if (!(error instanceof RenderError)) throw error;
    await write(io.stderr, `switchboard render: ${error.message}\n`);
    return 2;
  }
  if (values.html && platform !== 'email') {
    await write(io.stderr, 'switchboard render: --html is only for --platform email\n');
    return 2;
  }
  const html = values.html === true;
  const render = createRenderService({
    onFallback: (reason) => void write(io.stderr, `switchboard render: a ${platform} document was written as is (render worker: ${reason})\n`),
  });

  if (!values.jsonl) {
    const markdown = await readAll(io.stdin);
    await write(io.stdout, JSON.stringify({ chunks: await chunksFor(render, platform, markdown, html) }) + '\n');
    return 0;
  }

  let failed = false;
  const lines = createInterface({ input: io.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const input = lineError(line);
    let out: string;
    if (typeof input === 'string') {
      failed = true;
      out = JSON.stringify({ error: input });
    } else {
      try {
        out = JSON.stringify({ chunks: await chunksFor(render, platform, input.markdown, html) });
      } catch (error) {
        failed = true;
        out = JSON.stringify({ error: oneLine(error) });
      }
    }
    await write(io.stdout, out + '\n');
  }
  return failed ? 1 : 0;
}
