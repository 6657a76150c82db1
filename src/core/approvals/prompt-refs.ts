/**
 * Where a door posted each approval prompt (ARCHITECTURE.md §16), so it can replace the buttons when the
 * approval is closed without a press on them (Adapter.closeApprovalPrompt). Kept in the process that
 * posted the prompt, the most recent `limit`; a prompt it does not know keeps its buttons, and a later
 * press on them is answered "already answered/expired" and removes them.
 */
export class PromptRefs<T> {
  private readonly refs = new Map<string, T>();
  constructor(private readonly limit = 1000) {}

  set(approvalId: string, ref: T): void {
    this.refs.delete(approvalId);
    this.refs.set(approvalId, ref);
    if (this.refs.size > this.limit) this.refs.delete(this.refs.keys().next().value as string);
  }

  /** The prompt's place, forgotten as it is taken (a prompt is closed once). */
  take(approvalId: string): T | undefined {
    const ref = this.refs.get(approvalId);
    this.refs.delete(approvalId);
    return ref;
  }
}
