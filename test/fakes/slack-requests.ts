/**
 * Requests into a Bolt receiver, signed exactly as Slack signs them, and the payload shapes Slack
 * posts (Events API envelopes, slash commands, url_verification). Re-exported by `./slack.js`.
 */
import { createHmac } from 'node:crypto';

/** Slack's request signature: `v0=` + hex HMAC-SHA256(signing secret, `v0:<timestamp>:<raw body>`). */
export function signSlackRequest(secret: string, body: string, timestamp: number = Math.floor(Date.now() / 1000)): { 'x-slack-signature': string; 'x-slack-request-timestamp': string } {
  const signature = createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex');
  return { 'x-slack-signature': `v0=${signature}`, 'x-slack-request-timestamp': String(timestamp) };
}

export interface PostSignedOptions {
  /** Defaults: JSON for a body starting with `{`, form-urlencoded otherwise. */
  contentType?: string;
  /** Signing time in seconds (default now); an old one makes a stale request. */
  timestamp?: number;
  /** Sign with this secret instead (a forged request). */
  signWith?: string;
  /** Slack's redelivery headers. */
  retryNum?: number;
  retryReason?: string;
}

export interface SignedResponse {
  status: number;
  text: string;
  /** Time until the response arrived, in ms. */
  ms: number;
}

/** POSTs a raw body to a receiver URL with Slack's signature headers. */
export async function postSigned(url: string, secret: string, body: string, opts: PostSignedOptions = {}): Promise<SignedResponse> {
  const contentType = opts.contentType ?? (body.trimStart().startsWith('{') ? 'application/json' : 'application/x-www-form-urlencoded');
  const headers: Record<string, string> = { 'content-type': contentType, ...signSlackRequest(opts.signWith ?? secret, body, opts.timestamp) };
  if (opts.retryNum !== undefined) {
    headers['x-slack-retry-num'] = String(opts.retryNum);
    headers['x-slack-retry-reason'] = opts.retryReason ?? 'http_timeout';
  }
  const started = Date.now();
  const res = await fetch(url, { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, text, ms: Date.now() - started };
}

let eventCounter = 0;

/** An Events API envelope (`event_callback`) around `event`, as JSON text. */
export function eventBody(event: Record<string, unknown>, opts: { eventId?: string; teamId?: string; apiAppId?: string } = {}): string {
  eventCounter += 1;
  return JSON.stringify({
    token: 'legacy-verification-token',
    team_id: opts.teamId ?? 'T0001',
    api_app_id: opts.apiAppId ?? 'A0001',
    event: { event_ts: event.ts, ...event },
    type: 'event_callback',
    event_id: opts.eventId ?? `Ev${String(eventCounter).padStart(8, '0')}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: opts.teamId ?? 'T0001', user_id: 'UBOT', is_bot: true, is_enterprise_install: false }],
  });
}

export interface CommandFields {
  command?: string;
  text: string;
  user_id: string;
  user_name?: string;
  channel_id: string;
  channel_name?: string;
  response_url: string;
  trigger_id?: string;
  team_id?: string;
}

/** A slash command payload, form-urlencoded as Slack posts it. */
export function commandBody(fields: CommandFields): string {
  eventCounter += 1;
  const full: Record<string, string> = {
    token: 'legacy-verification-token',
    team_id: fields.team_id ?? 'T0001',
    team_domain: 'fake',
    channel_id: fields.channel_id,
    channel_name: fields.channel_name ?? 'general',
    user_id: fields.user_id,
    user_name: fields.user_name ?? fields.user_id.toLowerCase(),
    command: fields.command ?? '/ask',
    text: fields.text,
    api_app_id: 'A0001',
    is_enterprise_install: 'false',
    response_url: fields.response_url,
    trigger_id: fields.trigger_id ?? `${eventCounter}.1.trigger${eventCounter}`,
  };
  return new URLSearchParams(full).toString();
}

/** `url_verification`, sent when the Request URL is saved in the app settings. */
export function urlVerificationBody(challenge: string): string {
  return JSON.stringify({ token: 'legacy-verification-token', challenge, type: 'url_verification' });
}

let actionCounter = 0;

/**
 * A `block_actions` interaction as Slack sends it when `userId` presses the button `actionId` (with
 * `value`) under the message `messageTs` in `channel`: the JSON payload, ready for Socket Mode.
 */
export function blockActionsPayload(o: { userId: string; username?: string; channel: string; messageTs: string; messageText?: string; actionId: string; value: string; responseUrl: string; teamId?: string }): Record<string, unknown> {
  actionCounter += 1;
  const teamId = o.teamId ?? 'T0001';
  return {
    type: 'block_actions',
    user: { id: o.userId, username: o.username ?? o.userId.toLowerCase(), name: o.username ?? o.userId.toLowerCase(), team_id: teamId },
    api_app_id: 'A0001',
    token: 'legacy-verification-token',
    container: { type: 'message', message_ts: o.messageTs, channel_id: o.channel, is_ephemeral: false },
    trigger_id: `${actionCounter}.${teamId}.trigger`,
    team: { id: teamId, domain: 'example' },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: o.channel, name: 'directmessage' },
    message: { type: 'message', user: 'UBOT', bot_id: 'BBOT', text: o.messageText ?? '', ts: o.messageTs },
    state: { values: {} },
    response_url: o.responseUrl,
    actions: [{ action_id: o.actionId, block_id: 'sb_approval', text: { type: 'plain_text', text: 'Approve', emoji: true }, value: o.value, type: 'button', action_ts: `${Math.floor(Date.now() / 1000)}.${String(actionCounter).padStart(6, '0')}` }],
  };
}

/** The same interaction form-urlencoded (`payload=<json>`), as Slack POSTs it over HTTP (sign it with postSigned). */
export function blockActionsBody(o: Parameters<typeof blockActionsPayload>[0]): string {
  return new URLSearchParams({ payload: JSON.stringify(blockActionsPayload(o)) }).toString();
}
