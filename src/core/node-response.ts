/**
 * A fetch Response read straight from a node:http answer.
 *
 * On Node 20 a web ReadableStream — and so every Response, which holds one — is costly to make and
 * hard to collect: 200,000 `new Response('x')` left 23.5 MB in old space here, plain objects of the
 * same shape 0.5 MB, and a Response with its stream, controller and Headers cost more CPU than
 * reading a Bot API call's small JSON answer. (Under load a message's other in-flight objects are
 * promoted too — bench/promoted.ts gives about 28 KB a message with or without this — so what it
 * saves is mostly CPU.)
 *
 * grammY reads every Bot API answer with json(): json() and text() read the Node stream directly,
 * and the headers are built when first read. `body` (made when first asked for) is a web stream over
 * the Node stream (web-stream.ts); the rest of the web side (clone, blob, formData, or a read after
 * `body` was taken) is a real Response over the same stream, made the first
 * time it is needed, so the object answers as fetch's own Response does throughout.
 */
import { finished, type Readable } from 'node:stream';
import { webStream } from './web-stream.js';

const utf8 = new TextDecoder();

export interface NodeResponseInit {
  status: number;
  statusText: string;
  /** Header name/value pairs as received (rawHeaders). */
  headers: Array<[string, string]>;
  url: string;
}

/** Reads a Node stream whole: its error, or an end before the whole body (a reset, an abort), rejects. */
function readAll(stream: Readable): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
    });
    finished(stream, (error) => (error ? reject(error) : resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size))));
  });
}

export class NodeResponse implements Response {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly url: string;
  readonly redirected = false;
  readonly type: Response['type'] = 'basic';
  readonly #pairs: Array<[string, string]>;
  #headers: Headers | undefined;
  /** The body still to be read; null when the answer has none. */
  readonly #source: Readable | null;
  #used = false;
  /** The web Response over the same body, once something asked for the rest of the web side. */
  #web: Response | undefined;

  constructor(source: Readable | null, init: NodeResponseInit) {
    this.#source = source;
    this.status = init.status;
    this.statusText = init.statusText;
    this.ok = init.status >= 200 && init.status <= 299;
    this.url = init.url;
    this.#pairs = init.headers;
  }

  get headers(): Headers {
    return (this.#headers ??= this.#web?.headers ?? new Headers(this.#pairs));
  }

  /** The body as a web stream: the web Response's, made when first asked for (null once json()/text() read it). */
  get body(): ReadableStream<Uint8Array> | null {
    if (this.#web) return this.#web.body;
    return this.#source && !this.#used ? this.web().body : null;
  }

  /** Whether the body was read (on the web side: whether a read began, as fetch says). */
  get bodyUsed(): boolean {
    return this.#used || (this.#web?.bodyUsed ?? false);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    if (this.onWebSide) return this.web().arrayBuffer();
    const bytes = await this.read();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    if (this.onWebSide) return this.web().text();
    return utf8.decode(await this.read());
  }

  async json(): Promise<unknown> {
    if (this.onWebSide) return this.web().json();
    return JSON.parse(utf8.decode(await this.read())) as unknown;
  }

  async blob(): Promise<Blob> {
    if (this.onWebSide) return this.web().blob();
    return new Blob([await this.arrayBuffer()], { type: this.headers.get('content-type') ?? '' });
  }

  formData(): Promise<FormData> {
    return this.web().formData();
  }

  clone(): Response {
    return this.web().clone();
  }

  /** The body's bytes, once (as fetch: a second read is a TypeError). */
  private read(): Promise<Buffer> {
    if (this.#used) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
    this.#used = true;
    return this.#source ? readAll(this.#source) : Promise.resolve(Buffer.alloc(0));
  }

  /** Whether `body` or the web Response was made: every read then goes through the web side. */
  private get onWebSide(): boolean {
    return this.#web !== undefined;
  }

  private web(): Response {
    // A body already read by json()/text() is gone: the web side has an empty one (bodyUsed stays true).
    this.#web ??= new Response(this.#source && !this.#used ? webStream(this.#source) : null, { status: this.status, statusText: this.statusText, headers: this.#headers ?? this.#pairs });
    return this.#web;
  }
}
