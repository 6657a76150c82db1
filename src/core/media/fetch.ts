/**
 * Fetching an attachment's bytes from a platform's file host (ARCHITECTURE.md §15), for the doors: a size
 * limit checked against Content-Length before the body and while it streams, a time limit on the
 * whole fetch, no redirects (a file host answers, it does not send the bot elsewhere with its token).
 */
import { AttachmentError } from './errors.js';
import { formatSize } from './parts.js';
import type { AttachmentFetcher, AttachmentKind, FetchLimits } from '../types.js';

export interface BoundedFetchOptions extends FetchLimits {
  headers?: Record<string, string>;
  /** The fetch to use (tests, a door's own); default the global one. */
  fetch?: typeof fetch;
}

export function tooLarge(size: number, maxBytes: number): AttachmentError {
  return new AttachmentError('too_large', `it is ${formatSize(size)}, over the limit of ${formatSize(maxBytes)} (media.max_bytes)`);
}

/** The body of `url`, at most `maxBytes`; an AttachmentError line for every way it can fail. */
export async function fetchBounded(url: string, options: BoundedFetchOptions): Promise<Uint8Array> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const seconds = Math.round(options.timeoutMs / 100) / 10;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { headers: options.headers, redirect: 'manual', signal });
  } catch (error) {
    if (timeout.aborted) throw new AttachmentError('timeout', `the platform's file server did not answer within ${seconds} s`);
    if (options.signal?.aborted) throw error;
    throw new AttachmentError('unreachable', `the platform's file server could not be reached`);
  }
  if (response.status === 404 || response.status === 410) {
    await response.body?.cancel().catch(() => undefined);
    throw new AttachmentError('not_found', 'the platform no longer has the file (404)');
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new AttachmentError('unreachable', `the platform's file server answered ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(declared, options.maxBytes);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    const reader = response.body?.getReader();
    if (reader) {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
        if (total > options.maxBytes) {
          await reader.cancel().catch(() => undefined);
          throw tooLarge(total, options.maxBytes);
        }
        chunks.push(value);
      }
    }
  } catch (error) {
    if (error instanceof AttachmentError) throw error;
    if (timeout.aborted) throw new AttachmentError('timeout', `the platform's file server did not send the file within ${seconds} s`);
    if (options.signal?.aborted) throw error;
    throw new AttachmentError('unreachable', 'the download was cut off');
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** What kind of attachment a platform's declared type says it is (a door's fact; the core sniffs the bytes). */
export function kindOfDeclared(mime: string | null | undefined): AttachmentKind {
  if (mime?.startsWith('image/')) return 'image';
  if (mime?.startsWith('audio/')) return 'audio';
  if (mime?.startsWith('video/')) return 'video';
  return 'document';
}

export interface FileHostOptions {
  /** The platform's name as a user reads it (`Slack`). */
  platform: string;
  /** Where its files live, in words (`Slack's file host`), for the line naming a file elsewhere. */
  where: string;
  /** The file hosts' names (`files.slack.com`). */
  hosts: readonly string[];
  /** The platform's API URL (SLACK_API_URL …): its host serves files too (a test's fake). */
  apiUrl: string;
  /** Headers a download needs (Slack: the bot token). */
  headers?: Record<string, string>;
}

/**
 * A door's fetcher for attachments on its platform's own file host (ARCHITECTURE.md §15): an attachment's
 * `ref` is fetched (fetchBounded) only when it is a URL on one of `hosts` or on the API URL's host,
 * never anywhere a message could point the bot with its token.
 */
export function fileHostFetcher(options: FileHostOptions): AttachmentFetcher {
  const ownHost = new URL(options.apiUrl).host;
  const hosts = new Set(options.hosts);
  return {
    async fetch(attachment, limits) {
      let url: URL;
      try {
        url = new URL(attachment.ref);
      } catch {
        throw new AttachmentError('unreachable', `${options.platform} gave no usable address for the file`);
      }
      if (!hosts.has(url.hostname) && url.host !== ownHost) throw new AttachmentError('unreachable', `the file is not on ${options.where} (${url.hostname})`);
      return fetchBounded(url.toString(), { ...limits, ...(options.headers ? { headers: options.headers } : {}) });
    },
  };
}
