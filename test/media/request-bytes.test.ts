import { describe, expect, it } from 'vitest';
import { chatCompletionBody, PiecesCache } from '../../src/core/providers/openai-body.js';
import { toAnthropicMessages } from '../../src/core/providers/anthropic.js';
import type { ChatMessage } from '../../src/core/messages.js';
import type { ModelRequest, PromptLayer } from '../../src/core/providers/provider.js';

const image = { id: 'a'.repeat(64), mime: 'image/jpeg', name: 'photo.jpg', bytes: 6 };
const media = new Map([[image.id, Buffer.from('JPEGDATA').toString('base64')]]);
const system = Object.freeze([Object.freeze({ name: "identity", text: "You are a bot." })]) as unknown as PromptLayer[];

function request(messages: ChatMessage[], withMedia = true): ModelRequest {
  return { model: 'm', system, messages, tools: [], maxOutputTokens: 100, ...(withMedia ? { media } : {}) };
}

describe('an earlier image on later turns', () => {
  const turn1: ChatMessage[] = [{ role: 'user', content: 'what is this?', media: [image] }];
  const turn2: ChatMessage[] = [...turn1, { role: 'assistant', content: 'A cat.' }, { role: 'user', content: 'and its colour?' }];
  const turn3: ChatMessage[] = [...turn2, { role: 'assistant', content: 'Grey.' }, { role: 'user', content: 'thanks' }];

  it('OpenAI: the image_url data URL part is byte-identical, and every request starts with the previous one', () => {
    const cache = new PiecesCache();
    const bodies = [turn1, turn2, turn3].map((m) => chatCompletionBody(request(m), false, cache).toString('utf8'));
    const part = '{"role":"user","content":[{"type":"text","text":"what is this?"},{"type":"image_url","image_url":{"url":"data:image/jpeg;base64,SlBFR0RBVEE="}}]}';
    for (const body of bodies) expect(body).toContain(part);
    // The same bytes a fresh serialisation gives (the cache changes nothing), and a shared prefix up to the new turn.
    expect(bodies[2]).toBe(chatCompletionBody(request(turn3), false, new PiecesCache()).toString('utf8'));
    const prefix = (b: string) => b.slice(0, b.indexOf('"A cat."'));
    expect(prefix(bodies[2])).toBe(prefix(bodies[1]));
  });

  it('OpenAI: without the bytes (no vision, or past retention) the image is one line naming it', () => {
    const body = chatCompletionBody(request(turn1, false), false, new PiecesCache()).toString('utf8');
    expect(body).toContain('"content":[{"type":"text","text":"what is this?\\n[image \\"photo.jpg\\", image/jpeg, 6 bytes: not shown, this model takes no images]"}]');
  });

  it('Anthropic: a base64 image block before the text, the same on every turn', () => {
    const cache = { type: 'ephemeral' as const };
    const first = JSON.stringify(toAnthropicMessages(turn2, undefined, cache, media)[0]);
    const later = JSON.stringify(toAnthropicMessages(turn3, undefined, cache, media)[0]);
    expect(first).toBe(later);
    expect(first).toBe('{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/jpeg","data":"SlBFR0RBVEE="}},{"type":"text","text":"what is this?"}]}');
  });

  it('OpenAI: the same session asked again without the bytes (the model refused them) carries no image part, not even from its kept pieces', () => {
    const cache = new PiecesCache();
    chatCompletionBody(request(turn1), false, cache);
    chatCompletionBody(request(turn2), false, cache);
    const again = chatCompletionBody(request(turn2, false), false, cache).toString('utf8');
    expect(again).not.toContain('image_url');
    expect(again).toBe(chatCompletionBody(request(turn2, false), false, new PiecesCache()).toString('utf8'));
  });
});
