/**
 * A loopback proxy in front of PostgreSQL that counts round trips (ARCHITECTURE.md §9): it reads the
 * frontend side of the wire protocol and counts every simple Query ('Q') and every Sync ('S', the end
 * of one extended-protocol batch: Parse/Bind/Execute…Sync is one trip). BEGIN and COMMIT are trips of
 * their own. The bytes pass through unchanged; the count is what any instance behind it pays,
 * whatever process it runs in.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface RoundTripProxy {
  /** `url` with its host and port pointed at the proxy. */
  url: string;
  /** Round trips so far (Query + Sync messages from every client). */
  trips(): number;
  /** Statement texts run so far (simple queries, and each Bind of a parsed statement), with how often each ran. */
  statements(): Map<string, number>;
  close(): Promise<void>;
}

/** Splits one client's byte stream into protocol messages: first the untyped startup packet(s), then typed ones. */
function frontendCounter(onMessage: (type: string, body: Buffer) => void): (chunk: Buffer) => void {
  let buf: Buffer = Buffer.alloc(0);
  let started = false;
  return (chunk) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    for (;;) {
      if (!started) {
        if (buf.length < 8) return;
        const len = buf.readInt32BE(0);
        if (buf.length < len) return;
        const code = buf.readInt32BE(4);
        buf = buf.subarray(len);
        // SSLRequest / GSSENCRequest are followed by another startup packet; a real startup ends the untyped part.
        if (code !== 80877103 && code !== 80877104) started = true;
        continue;
      }
      if (buf.length < 5) return;
      const len = buf.readInt32BE(1);
      if (buf.length < len + 1) return;
      onMessage(String.fromCharCode(buf[0]), buf.subarray(5, len + 1));
      buf = buf.subarray(len + 1);
    }
  };
}

export async function startRoundTripProxy(url: string): Promise<RoundTripProxy> {
  const target = new URL(url);
  const port = Number(target.port || 5432);
  const host = target.hostname;
  let trips = 0;
  const seen = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(port, host);
    sockets.add(client).add(upstream);
    // Statement texts by name on this connection: a prepared statement is parsed once and then only bound.
    const byName = new Map<string, string>();
    let unnamed = '';
    const count = frontendCounter((type, body) => {
      if (type === 'Q' || type === 'S') trips++;
      let sql: string | undefined;
      if (type === 'Q') sql = body.subarray(0, body.indexOf(0)).toString();
      if (type === 'P') {
        const nameEnd = body.indexOf(0);
        const text = body.subarray(nameEnd + 1, body.indexOf(0, nameEnd + 1)).toString();
        const name = body.subarray(0, nameEnd).toString();
        if (name) byName.set(name, text);
        else unnamed = text;
      }
      // Bind: portal name, then statement name; each Bind is one execution of the statement.
      if (type === 'B') {
        const portalEnd = body.indexOf(0);
        const name = body.subarray(portalEnd + 1, body.indexOf(0, portalEnd + 1)).toString();
        sql = name ? byName.get(name) : unnamed;
      }
      if (sql) {
        const key = sql.replace(/\s+/g, ' ').trim().slice(0, 90);
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }
    });
    client.on('data', (chunk: Buffer) => {
      count(chunk);
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as AddressInfo).port);
  return {
    url: proxied.toString(),
    trips: () => trips,
    statements: () => new Map(seen),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
