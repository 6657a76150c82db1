/** The shape of one signal of the threat scan's co-occurrence layer (signals.ts, concepts.ts). */
export type SignalKind =
  | 'precedence'
  | 'override'
  | 'limits_off'
  | 'role_switch'
  | 'privilege'
  | 'grant'
  | 'fake_marker'
  | 'covert'
  | 'deceive'
  | 'secret_file'
  | 'secret'
  | 'prompt_object'
  | 'user_data'
  | 'others_data'
  | 'channel'
  | 'beacon'
  | 'send'
  | 'read'
  | 'anyone'
  | 'destroy'
  | 'trigger'
  | 'addressee'
  | 'encoded'
  | 'no_confirm'
  | 'boundary'
  | 'verbatim'
  | 'schedule'
  | 'mirror'
  | 'literal_secret'
  | 'store'
  | 'replay';

export interface Signal {
  kind: SignalKind;
  /**
   * Lower-case ASCII pieces at least one of which every ASCII match contains (the keyword pass of
   * the scan finds them all at once); a text with none of them and no non-ASCII letter skips the regex.
   */
  stems: readonly string[];
  weight: number;
  strong: boolean;
  regex: RegExp;
  /** Negation before (or, in verb-final languages, after) the match voids it: just before it, or anywhere earlier in its clause. */
  negatable?: boolean | 'clause';
  /** Extra check on a match (`m.index` is its offset in `text`). */
  accept?: (m: { 0: string; index: number }, text: string) => boolean;
}
