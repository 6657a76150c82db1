import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startModelFake, lastUserText, type ModelFake, type RecordedRequest } from '../fakes/model.js';
import { cleanEnv, cleanUp, removeDir, runCli } from '../helpers/cli.js';

const require = createRequire(import.meta.url);
const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const FIXTURE = fileURLToPath(new URL('../fixtures/mcp/fixture-server.mjs', import.meta.url));

type Message = { role: string; content?: string };
const messagesOf = (req: RecordedRequest) => req.body.messages as Message[];
const toolNames = (req: RecordedRequest) => ((req.body.tools ?? []) as Array<{ function: { name: string } }>).map((t) => t.function.name);

let model: ModelFake;
let home: string;
let folder: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'sb-mcp-files-'));
  writeFileSync(join(folder, 'report.txt'), 'Tickets closed yesterday: 7');
  model = await startModelFake({
    script: (req) => {
      const messages = messagesOf(req);
      const last = messages[messages.length - 1];
      if (last.role === 'tool') return { text: `Tool said: ${last.content}` };
      const said = lastUserText(req);
      if (said === 'read') return { toolCalls: [{ name: 'files__read_text_file', arguments: { path: join(folder, 'report.txt') } }] };
      if (said === 'grow') return { toolCalls: [{ name: 'fx__grow', arguments: {} }] };
      return { text: `Echo: ${said}` };
    },
  });
  home = mkdtempSync(join(tmpdir(), 'sb-mcp-chat-'));
  writeFileSync(
    join(home, 'config.yaml'),
    [
      'mcp_servers:',
      '  files:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(folder)}]`,
      '    read_only: [read_text_file, list_directory]',
      '    start_timeout_seconds: 90',
      '  fx:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(FIXTURE)}, ok]`,
      '    tools: [add, grow, extra]',
      '    start_timeout_seconds: 90',
      '',
    ].join('\n'),
  );
});
afterAll(() => cleanUp(() => model?.close(), () => removeDir(home), () => removeDir(folder)));

describe('MCP tools through `switchboard chat`', () => {
  it('reads a file through server-filesystem in a whole turn; a tools/list_changed shows from /new on, the session keeps its tool list byte for byte', async () => {
    const env = cleanEnv({ SWITCHBOARD_HOME: home, OPENAI_BASE_URL: model.openaiUrl, OPENAI_API_KEY: 'k', MODEL: 'fake-model' });
    const res = await runCli(['chat'], { env, input: 'read\ngrow\nafter\n/new\nagain\n', timeoutMs: 120_000 });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.split('\n')).toEqual(['Tool said: Tickets closed yesterday: 7', 'Tool said: grown', 'Echo: after', 'Started a new conversation.', 'Echo: again', '']);
    const reqs = model.completions();
    expect(reqs).toHaveLength(6);
    // The tool result went back as a tool message after the assistant's call.
    expect(messagesOf(reqs[1]).slice(-2).map((m) => m.role)).toEqual(['assistant', 'tool']);
    const first = toolNames(reqs[0]);
    expect(first).toEqual(expect.arrayContaining(['web_fetch', 'files__read_text_file', 'fx__add', 'fx__grow']));
    expect(first).not.toContain('fx__extra');
    // Fixed per session: the same bytes for every request of the first session, after the change too.
    const bytes = (req: RecordedRequest) => JSON.stringify(req.body.tools);
    for (const req of reqs.slice(1, 5)) expect(bytes(req)).toBe(bytes(reqs[0]));
    // From the next session on: the new tool, in its place in the stable order.
    expect(toolNames(reqs[5]).filter((n) => n !== 'fx__extra')).toEqual(first);
    expect(toolNames(reqs[5])).toContain('fx__extra');
    const mcpNames = toolNames(reqs[5]).filter((n) => n.includes('__'));
    expect(mcpNames).toEqual([...mcpNames].sort());
  }, 150_000);

  it('doctor lists each MCP server, its state and its tools; a server that cannot start is a problem with its fix', async () => {
    const doctorHome = mkdtempSync(join(tmpdir(), 'sb-mcp-doctor-'));
    try {
      writeFileSync(
        join(doctorHome, 'config.yaml'),
        ['mcp_servers:', '  fx:', `    command: ${JSON.stringify(process.execPath)}`, `    args: [${JSON.stringify(FIXTURE)}, ok]`, '    tools: [add, grow]', '  broken:', `    command: ${JSON.stringify(process.execPath)}`, `    args: [${JSON.stringify(FIXTURE)}, exit]`, ''].join('\n'),
      );
      const env = cleanEnv({ SWITCHBOARD_HOME: doctorHome, OPENAI_BASE_URL: model.openaiUrl, OPENAI_API_KEY: 'k', MODEL: 'fake-model' });
      const res = await runCli(['doctor'], { env, timeoutMs: 60_000 });
      expect(res.code).toBe(1);
      expect(res.stdout).toContain('✓ mcp fx: ready (stdio), 2 tools: fx__add, fx__grow\n');
      expect(res.stdout).toMatch(/✗ mcp broken: (failed|restarting) \(stdio\): failed to start: .*cannot open the database.* — fix: check mcp_servers\.broken \(command, args, env, cwd\); the gateway runs without its tools\n/);
    } finally {
      removeDir(doctorHome);
    }
  }, 90_000);
});
