#!/usr/bin/env node
/**
 * The smallest stdio MCP server (bench/mcp.ts): newline-delimited JSON-RPC by hand, no SDK, so it
 * starts in a few tens of milliseconds and answers a call at once. `node mcp-server.mjs N` lists N
 * tools (`t1`…`tN`); a call answers `{echo, serverMs}` as text: its arguments, and the time it spent
 * from reading the request to writing the answer (what the gateway's own time excludes).
 */
const count = Number(process.argv[2] ?? 10);
const tools = Array.from({ length: count }, (_, i) => ({
  name: `t${i + 1}`,
  description: `Benchmark tool ${i + 1}: echoes its arguments.`,
  inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'what to echo' }, n: { type: 'number' } }, required: ['text'] },
}));
let buffer = '';
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let at;
  while ((at = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, at);
    buffer = buffer.slice(at + 1);
    if (!line.trim()) continue;
    const began = process.hrtime.bigint();
    const request = JSON.parse(line);
    if (request.id === undefined) continue; // a notification
    const reply = (result) => send({ jsonrpc: '2.0', id: request.id, result });
    switch (request.method) {
      case 'initialize':
        reply({ protocolVersion: request.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'bench', version: '1.0.0' } });
        break;
      case 'tools/list':
        reply({ tools });
        break;
      case 'ping':
        reply({});
        break;
      case 'tools/call': {
        const serverMs = Number(process.hrtime.bigint() - began) / 1e6;
        reply({ content: [{ type: 'text', text: JSON.stringify({ echo: request.params.arguments ?? {}, serverMs }) }] });
        break;
      }
      default:
        send({ jsonrpc: '2.0', id: request.id, error: { code: -32601, message: `no method ${request.method}` } });
    }
  }
});
