/**
 * Slack files as facts (ARCHITECTURE.md §15): each file of a message by its `url_private`, fetched with the
 * bot token (Slack refuses it otherwise), only from Slack's own file host (files.slack.com) or the
 * host of SLACK_API_URL (where a test's fake serves them). A voice clip (`slack_audio`) is a voice note.
 */
import { z } from 'zod';
import type { AttachmentFetcher, AttachmentKind, InboundAttachment } from '../../core/types.js';
import { fileHostFetcher, kindOfDeclared } from '../../core/media/fetch.js';

const fileSchema = z.looseObject({
  name: z.string().optional(),
  mimetype: z.string().optional(),
  size: z.number().optional(),
  url_private: z.string().optional(),
  url_private_download: z.string().optional(),
  subtype: z.string().optional(),
  duration_ms: z.number().optional(),
});

export const slackFilesSchema = z.array(z.unknown()).optional();

function kindOf(mime: string | undefined, subtype: string | undefined): AttachmentKind {
  return subtype === 'slack_audio' ? 'voice' : kindOfDeclared(mime);
}

/** The files of an event (each validated on its own: one that does not parse is left out). */
export function slackAttachments(files: readonly unknown[] | undefined): InboundAttachment[] {
  const out: InboundAttachment[] = [];
  for (const raw of files ?? []) {
    const f = fileSchema.safeParse(raw);
    if (!f.success) continue;
    const url = f.data.url_private_download ?? f.data.url_private;
    if (!url) continue;
    out.push({
      kind: kindOf(f.data.mimetype, f.data.subtype),
      name: (f.data.name ?? 'file').replace(/[\u0000-\u001f/\\]/g, ' ').slice(0, 120) || 'file',
      ...(f.data.mimetype ? { declaredMime: f.data.mimetype } : {}),
      ...(f.data.size !== undefined ? { declaredSize: f.data.size } : {}),
      ...(f.data.duration_ms !== undefined ? { durationSeconds: f.data.duration_ms / 1000 } : {}),
      ref: url,
    });
  }
  return out;
}

export function slackFetcher(token: string, apiUrl: string): AttachmentFetcher {
  return fileHostFetcher({ platform: 'Slack', where: "Slack's file host", hosts: ['files.slack.com'], apiUrl, headers: { authorization: `Bearer ${token}` } });
}
