import type { Readable } from 'node:stream';
import type { ReadableStreamBYOBReader, ReadableStreamDefaultReader, ReadableStreamReader, ReadableWritablePair, StreamPipeOptions } from 'node:stream/web';
import { webStream } from './web-stream.js';

type Chunks = ReturnType<ReadableStream<Uint8Array>['values']>;

/**
 * A response's `body` over the Node stream it is read from. Iterated (`for await`, `values()`: how
 * the model SDKs read a streamed answer), it reads the Node stream itself; every other use — a
 * reader, a pipe, a tee, or the body of a web Response — goes through a real web ReadableStream over
 * the same source (web-stream.ts), made the first time one is needed.
 *
 * Why not always the web stream: on Node 20 every ReadableStream (like every AbortSignal) is made
 * "transferable", which ties it to a C++ object that a minor GC does not collect, so each one lived
 * on into old space with everything it held — about a quarter of what outlived a scavenge per
 * message here (bench/promoted.ts: 32.7 → 23.8 KB a message), and 7 % of the CPU a message cost.
 *
 * As a web stream's: chunks in order, an error or an end before the whole body (a reset, an abort)
 * thrown by the iteration, a `break` cancels it (the source is destroyed) unless `preventCancel`,
 * and a body being iterated is `locked`. `instanceof ReadableStream` is false.
 */
export class NodeBody implements ReadableStream<Uint8Array> {
  readonly #source: Readable;
  #iterating = false;
  #web: ReadableStream<Uint8Array> | undefined;

  constructor(source: Readable) {
    this.#source = source;
  }

  get locked(): boolean {
    return this.#iterating || (this.#web?.locked ?? false);
  }

  /** The body as a real web stream (made once); a TypeError while it is being iterated, as a locked stream's. */
  web(): ReadableStream<Uint8Array> {
    if (this.#iterating) throw new TypeError('ReadableStream is locked');
    return (this.#web ??= webStream(this.#source));
  }

  values(options?: { preventCancel?: boolean }): Chunks {
    if (this.#web) return this.#web.values(options);
    if (this.#iterating) throw new TypeError('ReadableStream is locked');
    this.#iterating = true;
    return this.#source.iterator({ destroyOnReturn: !options?.preventCancel }) as Chunks;
  }

  [Symbol.asyncIterator](): Chunks {
    return this.values();
  }

  getReader(options: { mode: 'byob' }): ReadableStreamBYOBReader;
  getReader(): ReadableStreamDefaultReader<Uint8Array>;
  getReader(options?: { mode?: 'byob' }): ReadableStreamReader<Uint8Array>;
  getReader(options?: { mode?: 'byob' }): ReadableStreamReader<Uint8Array> {
    return options?.mode === 'byob' ? this.web().getReader({ mode: 'byob' }) : this.web().getReader();
  }

  cancel(reason?: unknown): Promise<void> {
    if (this.#web) return this.#web.cancel(reason);
    if (this.#iterating) return Promise.reject(new TypeError('ReadableStream is locked'));
    this.#source.destroy();
    return Promise.resolve();
  }

  pipeThrough<T>(transform: ReadableWritablePair<T, Uint8Array>, options?: StreamPipeOptions): ReadableStream<T> {
    return this.web().pipeThrough(transform, options);
  }

  pipeTo(destination: WritableStream<Uint8Array>, options?: StreamPipeOptions): Promise<void> {
    return this.web().pipeTo(destination, options);
  }

  tee(): [ReadableStream<Uint8Array>, ReadableStream<Uint8Array>] {
    return this.web().tee();
  }
}
