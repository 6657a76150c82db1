/**
 * Request bodies as the Bot API takes them: JSON, form-urlencoded, multipart/form-data (grammY uses
 * multipart for uploads) and query parameters, merged into one parameter object.
 */
import type { IncomingMessage } from 'node:http';
import { boundaryOf, parseMultipart } from './multipart.js';

/** Form values arrive as strings; grammY serializes nested objects as JSON inside them. */
function formValue(value: string): unknown {
  if (/^[[{]/.test(value)) {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

export async function readParams(req: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const params: Record<string, unknown> = {};
  for (const [k, v] of url.searchParams) params[k] = formValue(v);
  const type = req.headers['content-type'] ?? '';
  if (body.length === 0) return params;
  if (type.startsWith('application/json')) {
    const parsed = JSON.parse(body.toString('utf8')) as unknown;
    if (parsed && typeof parsed === 'object') Object.assign(params, parsed);
  } else if (type.startsWith('application/x-www-form-urlencoded')) {
    for (const [k, v] of new URLSearchParams(body.toString('utf8'))) params[k] = formValue(v);
  } else if (type.startsWith('multipart/form-data')) {
    const boundary = boundaryOf(type);
    if (boundary) {
      // A file part is kept whole under its field name (grammY names it by a random id and refers
      // to it as `attach://<id>` from the method's parameter).
      const { fields, files } = parseMultipart(body, boundary);
      for (const [k, v] of Object.entries(fields)) params[k] = formValue(v);
      for (const file of files) params[file.field] = file;
    }
  }
  return params;
}

export function num(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  return undefined;
}
