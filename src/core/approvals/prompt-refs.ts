/**
 * Where a door posted each approval prompt (ARCHITECTURE.md §16), so it can replace the buttons when the
 * approval is closed without a press on them (Adapter.closeApprovalPrompt). The door reports the place when
 * it posts the prompt (Delivery.onPromptPosted) and the core keeps it with the approval, so any instance
 * can close the prompt, also after a restart; the process that posted it also remembers the most recent
 * `limit` itself. A stored place is checked against the door's `schema` (it came back from the database).
 */
import type { ZodType } from 'zod';

export class PromptRefs<T> {
  private readonly refs = new Map<string, T>();
  constructor(
    private readonly schema: ZodType<T>,
    private readonly limit = 1000,
  ) {}

  set(approvalId: string, ref: T): void {
    this.refs.delete(approvalId);
    this.refs.set(approvalId, ref);
    if (this.refs.size > this.limit) this.refs.delete(this.refs.keys().next().value as string);
  }

  /** The prompt's place — remembered here, else `posted` (the store's copy) — forgotten as it is taken (a prompt is closed once). */
  take(approvalId: string, posted?: unknown): T | undefined {
    const ref = this.refs.get(approvalId);
    this.refs.delete(approvalId);
    if (ref !== undefined || posted === undefined) return ref;
    const stored = this.schema.safeParse(posted);
    return stored.success ? stored.data : undefined;
  }
}
