/**
 * A real SMTP server on loopback (smtp-server) that parses each received mail with mailparser.
 * `failNext` makes the next N connections (greeting), MAIL FROM, RCPT TO or DATA commands fail with a
 * temporary (421/451) or permanent (550) reply, as a real server does for overload, greylisting or an
 * unknown mailbox.
 */
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo, Socket } from 'node:net';
import type { Readable } from 'node:stream';

export interface ReceivedMail {
  /** Envelope (MAIL FROM / RCPT TO), as the server saw it. */
  envelope: { from: string; to: string[] };
  /** The parsed message: text, html, subject, headers, messageId, inReplyTo, references, date, from. */
  parsed: ParsedMail;
  /** The raw message as sent. */
  raw: string;
}

export type SmtpPhase = 'connect' | 'mail' | 'rcpt' | 'data';

export interface FailureSpec {
  /** Which command fails ('connect': the greeting, e.g. 421, and the connection is closed). */
  phase: SmtpPhase;
  /** 451 (temporary) or 550 (permanent), or any SMTP reply code. */
  code: number;
  /** How many commands in a row fail (default 1). */
  times?: number;
  /** Reply text (default per code). */
  message?: string;
}

export interface SmtpFake {
  /** `smtp://127.0.0.1:<port>` */
  url: string;
  port: number;
  messages: ReceivedMail[];
  /** Commands refused so far (for asserting retries). */
  refusals: Array<{ phase: SmtpPhase; code: number }>;
  waitForMessages(n: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  failNext(spec: FailureSpec): void;
  /** Client connections open right now (a pooled transport keeps one between mails). */
  openConnections(): number;
  /** Waits for the clients to hang up (smtp-server does not cut them). */
  close(): Promise<void>;
}

function smtpError(code: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode: code });
}

function defaultText(code: number, phase: SmtpPhase): string {
  if (code >= 500) return phase === 'rcpt' ? '5.1.1 No such user here' : '5.7.1 Message rejected as spam';
  if (phase === 'connect') return '4.3.2 Too many connections, try again later';
  return '4.7.1 Greylisted, please try again later';
}

function streamToBuffer(stream: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    stream.on('data', (c: Buffer) => parts.push(c));
    stream.on('end', () => resolve(Buffer.concat(parts)));
    stream.on('error', reject);
  });
}

export async function startSmtpFake(): Promise<SmtpFake> {
  const messages: ReceivedMail[] = [];
  const refusals: SmtpFake['refusals'] = [];
  const failures: Array<Required<FailureSpec>> = [];
  const waiters: Array<() => void> = [];

  function takeFailure(phase: SmtpPhase): Error | null {
    const spec = failures.find((f) => f.phase === phase && f.times > 0);
    if (!spec) return null;
    spec.times -= 1;
    refusals.push({ phase, code: spec.code });
    return smtpError(spec.code, spec.message);
  }

  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'test' });
    },
    onConnect(_session: SMTPServerSession, callback: (err?: Error | null) => void) {
      callback(takeFailure('connect'));
    },
    onMailFrom(_address: SMTPServerAddress, _session: SMTPServerSession, callback: (err?: Error | null) => void) {
      callback(takeFailure('mail'));
    },
    onRcptTo(_address: SMTPServerAddress, _session: SMTPServerSession, callback: (err?: Error | null) => void) {
      callback(takeFailure('rcpt'));
    },
    onData(stream: Readable, session: SMTPServerSession, callback: (err?: Error | null) => void) {
      streamToBuffer(stream)
        .then(async (raw) => {
          const failure = takeFailure('data');
          if (failure) return callback(failure);
          const parsed = await simpleParser(raw);
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          messages.push({ envelope: { from, to: session.envelope.rcptTo.map((r) => r.address) }, parsed, raw: raw.toString('utf8') });
          callback(null);
          for (const w of waiters.splice(0)) w();
        })
        .catch((error: Error) => callback(error));
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.on('error', () => undefined);
  const port = (server.server.address() as AddressInfo).port;
  const connections = new Set<Socket>();
  server.server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    refusals,
    failNext(spec) {
      failures.push({ times: 1, message: defaultText(spec.code, spec.phase), ...spec } as Required<FailureSpec>);
    },
    async waitForMessages(n, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < n) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`SMTP fake: expected ${n} messages, got ${messages.length}`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Math.min(left, 100));
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
      return messages.slice(0, n);
    },
    openConnections: () => connections.size,
    close() {
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
