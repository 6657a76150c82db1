/**
 * Secrets never reach the model (ARCHITECTURE.md §17), through the real `switchboard chat`: credentials of
 * every shape, and the settings' own secret values verbatim, planted in each source a request is built
 * from — SOUL.md, AGENTS.md, MEMORY.md, USER.md, a skill's description and body (skill_view, a tool
 * result), the config's system_message and what the person typed (the history) — and none of them is
 * in the raw bytes the fake model received. Hashes, UUIDs and git SHAs are not secrets and arrive.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelFake, type ModelFake } from '../fakes/model.js';
import { cleanEnv, cleanUp, removeDir, runCli } from '../helpers/cli.js';

const tg35 = 'AAHk3mPq9ZxYw2VuTs8RqPo7NmLk6JiHg5F';
/** The secret part of each planted credential (what must not arrive), by source. */
const S = {
  openai: 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z',
  anthropic: 'sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe',
  awsId: 'AKIAQ3EXAMPLE7TESTAB',
  awsSecret: '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',
  ghp: 'ghp_1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz',
  ghPat: 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123',
  slackBot: 'xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx',
  slackApp: 'xapp-1-A0123456789-0123456789012-abcdef0123456789',
  telegram: `1234567890:${tg35}`,
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  pemBody: 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
  dbPassword: 'Tr0ub4dor-and-3',
  secretColon: 's3cr3tValue99',
  tokenEq: 'Abc123xyz789QQ',
  // the settings' own values: no shape would find these
  configuredKey: 'plainmodelkeyvalue4417',
  consoleToken: 'consoletokenvalue9921',
};
const PEM = `-----BEGIN OPENSSH PRIVATE KEY-----\n${S.pemBody}\nQyNTUxOQAAACBXh3kL2mZ0ZGVzdGtleQ\n-----END OPENSSH PRIVATE KEY-----`;
const NOT_SECRETS = ['3f786850e387550fdab836ed7e6dc881de23001b', '123e4567-e89b-12d3-a456-426614174000', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'];

let model: ModelFake;
let home: string;
let workspace: string;
beforeAll(async () => {
  model = await startModelFake({
    script: (_req, i) => (i === 0 ? { toolCalls: [{ name: 'skill_view', arguments: { name: 'deploy' } }] } : { text: 'Done.' }),
  });
  home = mkdtempSync(join(tmpdir(), 'sb-secrets-'));
  workspace = join(home, 'ws');
  mkdirSync(join(workspace, '.git'), { recursive: true });
  writeFileSync(join(home, 'SOUL.md'), `You are Quill. Our OpenAI key is ${S.openai} and the bot token ${S.telegram}.\n`);
  writeFileSync(join(home, 'config.yaml'), `system_message: "Staging JWT: ${S.jwt}"\n`);
  writeFileSync(
    join(workspace, 'AGENTS.md'),
    [
      '# Project',
      '',
      `- OPENAI_API_KEY=${S.openai}`,
      `- ANTHROPIC_API_KEY=${S.anthropic}`,
      `- aws_access_key_id = ${S.awsId}`,
      `- aws_secret_access_key = ${S.awsSecret}`,
      `- GitHub: ${S.ghp} and ${S.ghPat}`,
      `- The model key we were given: ${S.configuredKey}`,
      `- Release commit ${NOT_SECRETS[0]}, build ${NOT_SECRETS[1]}, checksum ${NOT_SECRETS[2]}.`,
      '',
      '## Database',
      '',
      `DB_PASSWORD=${S.dbPassword}`,
    ].join('\n'),
  );
  mkdirSync(join(home, 'memories', 'cli-local'), { recursive: true });
  writeFileSync(join(home, 'memories', 'cli-local', 'MEMORY.md'), `Slack bot token ${S.slackBot}\n§\nConsole login: ${S.consoleToken}`);
  writeFileSync(join(home, 'memories', 'cli-local', 'USER.md'), `Their app token is ${S.slackApp}; secret: ${S.secretColon}`);
  mkdirSync(join(home, 'skills', 'deploy'), { recursive: true });
  writeFileSync(
    join(home, 'skills', 'deploy', 'SKILL.md'),
    `---\nname: deploy\ndescription: Ship a release (token=${S.tokenEq})\n---\nUse this key:\n\n${PEM}\n\nand ${S.awsId} / ${S.awsSecret}.\n`,
  );
});
afterAll(() => cleanUp(() => model?.close(), () => removeDir(home)));

describe('secrets never reach the model', () => {
  it('no planted secret is in any request body the fake model received; hashes, UUIDs and git SHAs are', async () => {
    const env = cleanEnv({
      SWITCHBOARD_HOME: home,
      OPENAI_BASE_URL: model.openaiUrl,
      OPENAI_API_KEY: S.configuredKey,
      SWITCHBOARD_CONSOLE_TOKEN: S.consoleToken,
      MODEL: 'fake-model',
    });
    const res = await runCli(['chat'], { env, cwd: workspace, input: `deploy please; my password=${S.dbPassword}x and ${S.jwt}\n` });
    expect(res.code, res.stderr).toBe(0);
    const reqs = model.completions();
    expect(reqs.length).toBe(2);
    // the second request carries the skill_view result (the skill body) as a tool message
    expect(reqs[1].raw).toContain('"role":"tool"');
    for (const req of reqs) {
      for (const [name, value] of Object.entries(S)) expect(req.raw.includes(value), `${name} reached the model`).toBe(false);
      expect(req.raw).toContain('[redacted secret]');
      for (const v of NOT_SECRETS) expect(req.raw).toContain(v);
    }
    expect(reqs[1].raw).not.toContain('BEGIN OPENSSH PRIVATE KEY');
    // the logs say where, never what
    expect(res.stderr).toMatch(/secret\(s\) redacted in AGENTS\.md/);
    expect(res.stderr).toMatch(/secret\(s\) redacted in skills\/deploy\/SKILL\.md/);
    for (const value of Object.values(S)) expect(res.stderr.includes(value)).toBe(false);
  }, 60_000);
});
