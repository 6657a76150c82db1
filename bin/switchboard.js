#!/usr/bin/env node
// Entry point: runs the compiled JavaScript in dist/ (built by `npm ci` through `prepare`, or `npm run build`).
// No TypeScript loader at run time (DESIGN §14); `npm run dev` runs the sources through tsx instead.
// A stack trace names the line in src/ rather than in dist/: frames in dist/ are mapped through its
// source maps when a trace is printed (dist/commands/source-maps.js), so start-up reads no map at all.
import { existsSync } from 'node:fs';

const dist = new URL('../dist/', import.meta.url);
const entry = new URL('cli.js', dist);
if (!existsSync(entry)) {
  process.stderr.write('switchboard: dist/ is missing; run `npm run build` (or `npm ci`, which builds it)\n');
  process.exit(1);
}
const { installSourceMaps } = await import(new URL('commands/source-maps.js', dist).href);
installSourceMaps(dist);
await import(entry.href);
