/**
 * Taint (DESIGN §17, ARCHITECTURE.md §17): text that neither the operator nor the person wrote — a
 * fetched page, an MCP or tool result, a document or transcript, quoted or forwarded mail, a search hit
 * from another session — marks the turn. In a tainted turn every call that acts outside the
 * conversation needs a person's yes, whatever the config says for clean turns; a cron run refuses it.
 */
export type TaintKind = 'web_page' | 'tool_result' | 'document' | 'transcript' | 'quoted_mail' | 'other_session';

const WHY: Record<TaintKind, string> = {
  web_page: 'read a web page',
  tool_result: 'read a tool result',
  document: 'read a document',
  transcript: 'read a transcript',
  quoted_mail: 'read quoted or forwarded mail',
  other_session: 'read text from another session',
};

export interface TaintMark {
  readonly kind: TaintKind;
  /** What was read: a URL, a tool name, a file name. Shown to the person, never to the model. */
  readonly source?: string;
}

/** The taint of one turn: starts clean, only ever grows. */
export class TurnTaint {
  private readonly marks: TaintMark[] = [];

  mark(kind: TaintKind, source?: string): void {
    if (this.marks.some((m) => m.kind === kind && m.source === source)) return;
    this.marks.push(source === undefined ? { kind } : { kind, source });
  }

  get tainted(): boolean {
    return this.marks.length > 0;
  }

  list(): readonly TaintMark[] {
    return this.marks;
  }

  /** "this turn read a web page (https://…) and read a document (report.pdf)" — why an approval is asked. */
  describe(): string {
    if (!this.marks.length) return '';
    const parts = this.marks.map((m) => (m.source ? `${WHY[m.kind]} (${m.source})` : WHY[m.kind]));
    return `this turn ${parts.join(' and ')}`;
  }
}
