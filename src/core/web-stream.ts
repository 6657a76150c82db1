import { finished, type Readable } from 'node:stream';

/**
 * A Node stream as a web ReadableStream: chunks as they come, paused while the reader has not
 * taken the last one, an error (or an end before the whole body, e.g. a reset or an abort) as the
 * stream's error, a cancel destroys the source. What Readable.toWeb gives, for a fraction of its
 * set-up cost per response (it was ~15 % of a model call's CPU here).
 */
export function webStream(stream: Readable): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      stream.on('data', (chunk: Buffer) => {
        if (done) return;
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 1) <= 0) stream.pause();
      });
      stream.once('end', () => {
        if (done) return;
        done = true;
        controller.close();
      });
      finished(stream, (error) => {
        if (done) return;
        done = true;
        controller.error(error ?? new Error('the response ended early'));
      });
    },
    pull() {
      stream.resume();
    },
    cancel(reason) {
      done = true;
      stream.destroy(reason instanceof Error ? reason : undefined);
    },
  });
}
