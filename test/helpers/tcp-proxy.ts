/**
 * A loopback TCP proxy in front of a real server, for a connection that hangs without closing: `freeze()`
 * stops forwarding on every open connection (both ways; the sockets stay open, the kernel keeps
 * acknowledging), as a hung server or a link that drops packets looks to the client. Connections opened
 * after the freeze pass.
 */
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Open connections stop forwarding from now on; they are not closed. */
  freeze(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const open = new Set<{ client: Socket; upstream: Socket; frozen: boolean }>();
  const server = createServer((client) => {
    const upstream = createConnection({ port: targetPort, host: targetHost });
    const pair = { client, upstream, frozen: false };
    open.add(pair);
    client.on('data', (chunk) => {
      if (!pair.frozen) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!pair.frozen) client.write(chunk);
    });
    const end = () => {
      open.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    freeze() {
      for (const pair of open) pair.frozen = true;
    },
    close() {
      for (const pair of open) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
