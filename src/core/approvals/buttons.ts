/**
 * What an Approve / Deny button carries (Telegram callback_data ≤ 64 bytes, Slack action value, Discord
 * custom_id ≤ 100): `sb-approval:<id>:<y|n>`. Doors write and read it with these two functions only.
 */
const PREFIX = 'sb-approval:';

export function approvalButtonData(approvalId: string, decision: 'approve' | 'deny'): string {
  return `${PREFIX}${approvalId}:${decision === 'approve' ? 'y' : 'n'}`;
}

/** The approval and the answer a button's data stands for; null for data that is not an approval button. */
export function parseApprovalButton(data: string): { approvalId: string; decision: 'approve' | 'deny' } | null {
  const m = /^sb-approval:([A-Za-z0-9]{6,40}):([yn])$/.exec(data);
  return m ? { approvalId: m[1], decision: m[2] === 'y' ? 'approve' : 'deny' } : null;
}

/** The button labels, the same on every door. */
export const APPROVE_LABEL = 'Approve';
export const DENY_LABEL = 'Deny';
