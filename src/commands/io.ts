/** The streams a command writes to (process streams in the CLI, buffers in tests). */
export interface CommandIO {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export type Command = (argv: string[], io: CommandIO) => Promise<number>;
