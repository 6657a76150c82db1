/**
 * Request bodies as the Bot API takes them: JSON, form-urlencoded, multipart/form-data (grammY uses
 * multipart for uploads) and query parameters, merged into one parameter object.
 */
import type { IncomingMessage } from 'node:http';

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

function parseMultipart(body: Buffer, boundary: string): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const part of body.toString('utf8').split(`--${boundary}`)) {
    const match = /^\r\nContent-Disposition: form-data; name="([^"]+)"[^\r]*\r\n(?:[^\r]+\r\n)*\r\n([\s\S]*)\r\n$/i.exec(part);
    if (match) params[match[1]] = formValue(match[2]);
  }
  return params;
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
    const boundary = /boundary=("?)([^";]+)\1/.exec(type)?.[2];
    if (boundary) Object.assign(params, parseMultipart(body, boundary));
  }
  return params;
}

export function num(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  return undefined;
}
