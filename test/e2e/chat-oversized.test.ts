/**
 * Issue 38, point 1: one oversized message must not break a conversation for good. Through the real
 * `switchboard chat` against the loopback model fake, which answers like OpenAI when a request is
 * longer than its context (`context_length_exceeded`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, lastUserText, systemText, type ModelFake, type RecordedRequest } from '../fakes/model.js';
import { cleanEnv, cleanUp, removeDir, runCli } from '../helpers/cli.js';

/** The fake's context, in request bytes. */
const CONTEXT_BYTES = 60_000;
const OVERFLOW = JSON.stringify({
  error: { message: "This model's maximum context length is 16385 tokens. However, your messages resulted in 40000 tokens.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' },
});
const isSummary = (req: RecordedRequest) => systemText(req).includes('<transcript>') || lastUserText(req).includes('<transcript>');

let model: ModelFake;
const dirs: string[] = [];
beforeAll(async () => {
  model = await startModelFake({
    script: (req) => {
      if (req.raw.length > CONTEXT_BYTES) return { status: 400, body: OVERFLOW };
      if (isSummary(req)) return { text: 'Summary: the user sent long texts.' };
      return { text: `Echo (${lastUserText(req).length}): ${lastUserText(req).slice(0, 20)}` };
    },
  });
});
afterAll(() => cleanUp(() => model?.close(), ...dirs.map((d) => () => removeDir(d))));

function setup(config: string): NodeJS.ProcessEnv {
  const home = mkdtempSync(join(tmpdir(), 'sb-oversized-'));
  dirs.push(home);
  writeFileSync(join(home, 'config.yaml'), config);
  return cleanEnv({ SWITCHBOARD_HOME: home, OPENAI_BASE_URL: model.openaiUrl, OPENAI_API_KEY: 'k', MODEL: 'fake-model' });
}

const turns = (req: RecordedRequest) => !isSummary(req);

// Each test starts the command once or twice; on a loaded machine that alone can take 10 s.
describe('an oversized message (issue 38)', { timeout: 120_000 }, () => {
  it('a context-length error is no dead end: the user learns /new, the message is not kept, the next message is answered — after a restart too', async () => {
    const env = setup('gateway: { max_message_chars: 500000 }\n');
    const huge = 'x'.repeat(100_000);
    const before = model.completions().length;
    const res = await runCli(['chat'], { env, input: `${huge}\nhello\n`, timeoutMs: 60_000 });
    expect(res.stdout.split('\n')[0]).toBe(
      'Sorry, this conversation is now too long for the model, so I could not answer that and did not keep your message. Send /new to start a fresh conversation (or send a shorter message).',
    );
    expect(res.stdout.split('\n')[1]).toBe('Echo (5): hello');
    const calls = model.completions().slice(before).filter(turns);
    // the try, one retry after compressing, then `hello` — which no longer carries the huge message
    expect(calls.map((r) => r.raw.length > CONTEXT_BYTES)).toEqual([true, true, false]);
    expect(res.code).toBe(0);
    const again = await runCli(['chat'], { env, input: 'still there?\n', timeoutMs: 60_000 });
    expect(again.stdout).toBe('Echo (12): still there?\n');
  });

  it('a conversation grown past the context is compressed and the turn tried once more', async () => {
    const env = setup('model: { context_window: 1000000 }\n');
    const part = (c: string) => c.repeat(25_000);
    const before = model.completions().length;
    const res = await runCli(['chat'], { env, input: `${part('a')}\n${part('b')}\n${part('c')}\n`, timeoutMs: 60_000 });
    const lines = res.stdout.trim().split('\n');
    expect(lines).toEqual(['Echo (25000): aaaaaaaaaaaaaaaaaaaa', 'Echo (25000): bbbbbbbbbbbbbbbbbbbb', 'Echo (25000): cccccccccccccccccccc']);
    const calls = model.completions().slice(before);
    expect(calls.filter(isSummary)).toHaveLength(1);
    expect(res.code).toBe(0);
  });

  it('a message over gateway.max_message_chars (default: model.context_window) is cut, and the reply says so and where', async () => {
    const env = setup('model: { context_window: 8000 }\n');
    const before = model.completions().length;
    const res = await runCli(['chat'], { env, input: `${'y'.repeat(1_048_576)}\n`, timeoutMs: 60_000 });
    expect(res.stdout).toBe("(Your message had 1,048,576 characters, more than the 8,000 I take (gateway.max_message_chars); I read only the first 8,000.)\n\nEcho (8000): yyyyyyyyyyyyyyyyyyyy\n");
    expect(model.completions().slice(before).map((r) => lastUserText(r).length)).toEqual([8000]);
    // the history keeps the cut message, not the megabyte
    const next = await runCli(['chat'], { env, input: 'and now?\n', timeoutMs: 60_000 });
    expect(next.stdout).toBe('Echo (8): and now?\n');
    expect(model.completions().at(-1)!.raw.length).toBeLessThan(30_000);
  });
});
