/**
 * The public API the core and adapters use: renderFor per platform, renderEmail (text, HTML,
 * subject), telegramHtmlToPlain for the "can't parse entities" fallback, and the limits.
 */
import { describe, expect, it } from 'vitest';
import { PLATFORM_FORMATS } from '../../src/platform/formats.js';
import type { PlatformId } from '../../src/platform/ids.js';
import {
  DISCORD_MESSAGE_LIMIT,
  RenderError,
  renderEmail,
  renderFor,
  SLACK_MESSAGE_LIMIT,
  TELEGRAM_MESSAGE_LIMIT,
  telegramHtmlToPlain,
} from '../../src/render/index.js';

describe('renderFor', () => {
  it('writes each platform in its PLATFORM_FORMATS format', () => {
    const md = '**Hi** <there>';
    expect(renderFor('telegram', md)).toEqual({ chunks: ['<b>Hi</b> &lt;there&gt;'] });
    expect(renderFor('slack', md)).toEqual({ chunks: ['*Hi* &lt;there&gt;'] });
    expect(renderFor('discord', md)).toEqual({ chunks: ['**Hi** \\<there\\>'] });
    expect(renderFor('cli', md)).toEqual({ chunks: ['Hi <there>'] });
  });

  it('e-mail: one text chunk plus HTML and subject', () => {
    const out = renderFor('email', '# Weekly report\n\nAll **green**.');
    expect(out.chunks).toEqual(['Weekly report\n=============\n\nAll green.']);
    expect(out.subject).toBe('Weekly report');
    expect(out.html).toContain('<strong>green</strong>');
  });

  it('e-mail with nothing to show: no chunk, no html, no subject', () => {
    expect(renderFor('email', '   ')).toEqual({ chunks: [] });
  });

  it('cron is not a render target, nor is a string that is no platform: a coded RenderError', () => {
    expect(() => renderFor('cron', 'x')).toThrow(expect.objectContaining({ name: 'RenderError', code: 'not_a_target', input: 'cron' }));
    expect(() => renderFor('myspace' as PlatformId, 'x')).toThrow(RenderError);
    expect(() => renderFor('myspace' as PlatformId, 'x')).toThrow(expect.objectContaining({ code: 'unknown_platform' }));
  });

  it('splits at the platform limit', () => {
    const md = 'word '.repeat(3000);
    expect(renderFor('discord', md).chunks.length).toBe(8);
    expect(renderFor('telegram', md).chunks.length).toBe(4);
    expect(renderFor('slack', md).chunks.length).toBe(1);
  });
});

describe('renderEmail', () => {
  it('subject: first heading, else first line, cut near 120 characters', () => {
    expect(renderEmail('Intro line\n\n# Heading later').subject).toBe('Heading later');
    expect(renderEmail('just *one* line\nand more').subject).toBe('just one line');
    const long = renderEmail('word '.repeat(60)).subject!;
    expect(long.length).toBeLessThanOrEqual(120);
    expect(long.endsWith('word…')).toBe(true);
    expect(renderEmail('').subject).toBeNull();
  });

  it('HTML is sanitized and raw HTML from the model shows as text', () => {
    const { html, text } = renderEmail('<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src=x onerror=alert(1)>');
    expect(html).not.toMatch(/<script|<img|href="javascript/i);
    expect(html).toContain('&#x3C;script>alert(1)&#x3C;/script>');
    expect(text).toContain('<script>alert(1)</script>');
    expect(text).toContain('x (javascript:alert(1))');
  });

  it('footnotes link to their notes in HTML and are listed in text', () => {
    const { html, text } = renderEmail('Claim[^1].\n\n[^1]: Source.');
    const href = /href="#([^"]+)"[^>]*data-footnote-ref/.exec(html)?.[1];
    expect(href).toBeDefined();
    expect(html).toContain(`id="${href}"`);
    expect(text).toContain('[1] Source.');
  });
});

describe('telegramHtmlToPlain', () => {
  it('strips tags and decodes entities', () => {
    expect(telegramHtmlToPlain('<b>a &lt; b</b> &amp; <a href="https://x.io">x</a> (https://x.io) &#128512; &quot;')).toBe(
      'a < b & x (https://x.io) 😀 "',
    );
  });
});

describe('limits', () => {
  it('are the platforms\' documented limits (ARCHITECTURE.md §6), counted as each platform counts, in the renderer and in the platform table alike', () => {
    const documented = { telegram: [4096, 'utf16'], slack: [40000, 'utf16'], discord: [2000, 'codepoint'] } as const;
    expect([TELEGRAM_MESSAGE_LIMIT, SLACK_MESSAGE_LIMIT, DISCORD_MESSAGE_LIMIT]).toEqual([4096, 40000, 2000]);
    for (const [platform, [limit, unit]] of Object.entries(documented)) {
      const hint = PLATFORM_FORMATS[platform as keyof typeof documented];
      expect([hint.messageLimit, hint.unit], platform).toEqual([limit, unit]);
    }
    for (const platform of ['email', 'cli'] as const) expect(PLATFORM_FORMATS[platform].messageLimit, platform).toBeNull();
  });
});
