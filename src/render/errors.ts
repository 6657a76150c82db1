/**
 * The renderer's one error. src/render sits below the core and cannot use its SwitchboardError;
 * callers that talk to a user (the `render` command) turn a RenderError into their usage line.
 */

/**
 * `unknown_platform`: not a platform id. `not_a_target`: a platform whose answers take another
 * platform's format (cron renders for where the job delivers). `unknown_format`: not a format the
 * renderer writes.
 */
export type RenderErrorCode = 'unknown_platform' | 'not_a_target' | 'unknown_format';

export class RenderError extends Error {
  readonly code: RenderErrorCode;
  /** The platform or format that was asked for, as given. */
  readonly input: string;
  /** `message` is one line a user can act on. */
  constructor(code: RenderErrorCode, input: string, message: string) {
    super(message);
    this.name = 'RenderError';
    this.code = code;
    this.input = input;
  }
}
