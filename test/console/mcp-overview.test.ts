/** The overview shows the MCP servers this process runs, their state and their tools (ARCHITECTURE.md §16). */
import { describe, expect, it } from 'vitest';
import { overviewPage } from '../../src/console/pages.js';
import type { Overview } from '../../src/console/data.js';

const day = { date: '2026-12-07', messages: 0, inputTokens: 0, cachedTokens: 0, cacheHitRate: null };
const base: Overview = { doors: [], model: 'm', engine: 'sqlite', schemaVersion: 1, today: day, days: [day], outbox: { pending: 0, parked: 0, sent: 0 }, sessions: 0, mcp: [], spending: null };

describe('console overview: MCP servers', () => {
  it('lists each server with its transport, state (and why, when not ready) and tools', () => {
    const page = overviewPage(
      {
        ...base,
        mcp: [
          { name: 'files', state: 'ready', transport: 'stdio', tools: ['files__list_directory', 'files__read_text_file'] },
          { name: 'crm', state: 'failed', transport: 'http', tools: [], problem: 'failed to start: <fetch failed>' },
        ],
      },
      { csrf: 'x' },
    );
    expect(page).toContain('<h2>MCP servers</h2>');
    expect(page).toContain('<tr><td>files <small>stdio</small></td><td><span class="state ready">ready</span></td><td>files__list_directory, files__read_text_file</td></tr>');
    expect(page).toContain('<tr><td>crm <small>http</small></td><td><span class="state failed">failed</span> <small>failed to start: &lt;fetch failed&gt;</small></td><td>none</td></tr>');
  });

  it('says nothing about MCP when this process runs no server', () => {
    expect(overviewPage(base, { csrf: 'x' })).not.toContain('MCP');
  });
});
