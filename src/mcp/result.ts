/**
 * An MCP tool result as the tool message the model reads (ARCHITECTURE.md §16): its text, cut at the
 * server's `max_result_chars` with a notice; images, audio and binary resources sent to the chat as
 * files through `ctx.attach` (§15) and named in one line, or described in one line when the turn has
 * no way to send files.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { OutboundFile } from '../core/tools/types.js';

type Content = CallToolResult['content'][number];

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/ogg': 'ogg',
  'application/pdf': 'pdf',
};

export interface ResultOptions {
  /** The provider-facing tool name (files are named after it). */
  tool: string;
  maxChars: number;
  attach?: (file: OutboundFile) => Promise<void>;
}

function sizeLabel(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`;
}

function fileName(uri: string | undefined, fallback: string, mime: string | undefined): string {
  const last = uri ? (uri.split(/[/?#]/).filter(Boolean).pop() ?? '') : '';
  if (/^[\w.-]{1,100}\.[A-Za-z0-9]{1,8}$/.test(last)) return last;
  return `${fallback}.${(mime && EXTENSIONS[mime]) ?? 'bin'}`;
}

async function media(kind: string, data: string, mime: string | undefined, name: string, options: ResultOptions): Promise<string> {
  const bytes = Buffer.from(data, 'base64');
  const what = `${kind} (${mime ?? 'unknown type'}, ${sizeLabel(bytes.length)})`;
  if (!options.attach) return `[${what}: not shown — this chat cannot receive files from tools]`;
  await options.attach({ data: new Uint8Array(bytes), name, ...(mime ? { mime } : {}) });
  return `[${what} sent to the chat as ${name}]`;
}

async function piece(item: Content, index: number, options: ResultOptions): Promise<string> {
  const base = `${options.tool}-${index + 1}`;
  switch (item.type) {
    case 'text':
      return item.text;
    case 'image':
      return media('image', item.data, item.mimeType, fileName(undefined, base, item.mimeType), options);
    case 'audio':
      return media('audio', item.data, item.mimeType, fileName(undefined, base, item.mimeType), options);
    case 'resource': {
      const r = item.resource;
      if ('text' in r && typeof r.text === 'string') return `[resource ${r.uri}]\n${r.text}`;
      if ('blob' in r && typeof r.blob === 'string') return media(`file ${r.uri}`, r.blob, r.mimeType, fileName(r.uri, base, r.mimeType), options);
      return `[resource ${r.uri}]`;
    }
    case 'resource_link':
      return `[resource link: ${item.uri}${item.name ? ` (${item.name})` : ''}${item.description ? ` — ${item.description}` : ''}]`;
    default:
      return `[${(item as { type: string }).type} content not shown]`;
  }
}

/** The text for the model; media are sent on the way. */
export async function resultText(result: CallToolResult, options: ResultOptions): Promise<string> {
  const parts: string[] = [];
  const content = Array.isArray(result.content) ? result.content : [];
  for (let i = 0; i < content.length; i++) parts.push(await piece(content[i], i, options));
  if (!content.length && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  let text = parts.join('\n');
  if (result.isError) text = `Error: ${text || 'the tool reported an error without saying what'}`;
  else if (!text) text = '(the tool returned nothing)';
  if (text.length > options.maxChars) {
    text = `${text.slice(0, options.maxChars)}\n[cut: the result had ${text.length} characters; only the first ${options.maxChars} are shown]`;
  }
  return text;
}
