/**
 * Files the agent sends (ARCHITECTURE.md §15): `ToolContext.attach` for one turn. Each file's type is sniffed
 * from its bytes, the bytes go to the media store at once (content-addressed), and the turn's reply
 * carries only the reference — a part after its text chunks, through the outbox like any chunk.
 */
import { extname } from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import type { MediaStore } from './media/types.js';
import type { AttachmentRef } from './types.js';
import type { MessageFile } from './messages.js';
import type { OutboundFile } from './tools/types.js';

/** Most files a turn may send (the rest are refused to the model, one line each). */
export const MAX_FILES_PER_REPLY = 10;

/** Text formats file-type cannot see (no magic bytes): named by extension, and only when the bytes are text. */
const TEXT_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.html': 'text/html',
  '.log': 'text/plain',
  '.yaml': 'text/yaml',
  '.yml': 'text/yaml',
};

function isText(data: Uint8Array): boolean {
  if (data.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return true;
  } catch {
    return false;
  }
}

/**
 * The type of `data`, from its bytes: file-type's magic numbers first (a declared type never
 * overrides them); then the declared type (an MCP result's), then text formats by name when the bytes are text.
 */
export async function sniffType(data: Uint8Array, name: string, declared?: string): Promise<string> {
  const found = await fileTypeFromBuffer(data);
  if (found) return found.mime;
  if (declared && /^[\w.+-]+\/[\w.+-]+$/.test(declared)) return declared.toLowerCase();
  const text = TEXT_TYPES[extname(name).toLowerCase()];
  if (isText(data)) return text ?? 'text/plain';
  return 'application/octet-stream';
}

/** A file name safe on every door: no folders, no control characters, not empty. */
export function safeFileName(name: string): string {
  const base = name.replace(/\\/g, '/').split('/').pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim().slice(0, 200);
  return clean && clean !== '.' && clean !== '..' ? clean : 'file';
}

/**
 * The files one turn (or cron run) attaches, in order. `attach` is what the turn hands its tools as
 * `ToolContext.attach`; `refs` go with the turn's reply.
 */
export class TurnFiles {
  readonly refs: AttachmentRef[] = [];

  constructor(private readonly media: MediaStore) {}

  readonly attach = async (file: OutboundFile): Promise<void> => {
    if (this.refs.length >= MAX_FILES_PER_REPLY) throw new Error(`at most ${MAX_FILES_PER_REPLY} files go with one reply`);
    if (file.data.length === 0) throw new Error(`${file.name} is empty (0 bytes): nothing to send`);
    const name = safeFileName(file.name);
    const mime = await sniffType(file.data, name, file.mime);
    const stored = await this.media.put(file.data, mime);
    const caption = file.caption?.trim();
    this.refs.push({ media: stored.id, name, mime, size: stored.bytes, ...(caption ? { caption } : {}) });
  };
}

/** What kind of file a type is, as a transcript names it. */
export function fileKind(mime: string): MessageFile['kind'] {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('audio/') || mime === 'application/ogg') return 'audio';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('text/') || /^application\/(pdf|json|vnd\.openxmlformats|msword|vnd\.oasis)/.test(mime)) return 'document';
  return 'file';
}

/** The files a reply carried (its outbox refs), as its stored message keeps them (ARCHITECTURE.md §15). */
export function sentFiles(refs: readonly AttachmentRef[]): MessageFile[] {
  return refs.map((r) => ({ kind: fileKind(r.mime), name: r.name, mime: r.mime, bytes: r.size, id: r.media }));
}
