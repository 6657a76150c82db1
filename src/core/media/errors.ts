/**
 * Why an attachment did not reach the model (ARCHITECTURE.md §15): one line the user is told, naming the file,
 * while the rest of the message goes on.
 */
export type AttachmentProblem = 'too_large' | 'unreachable' | 'timeout' | 'not_found' | 'empty' | 'unreadable' | 'encrypted' | 'no_speech' | 'transcription';

export class AttachmentError extends Error {
  constructor(
    readonly problem: AttachmentProblem,
    /** The reason, in words a user understands (no stack, no URL with a token). */
    message: string,
  ) {
    super(message);
    this.name = 'AttachmentError';
  }
}
