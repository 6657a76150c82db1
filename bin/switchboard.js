#!/usr/bin/env node
// Entry point: runs the compiled JavaScript in dist/ (built by `npm ci` through `prepare`, or `npm run build`).
// No TypeScript loader at run time (DESIGN §14); `npm run dev` runs the sources through tsx instead.
// Source maps are on, so a stack trace names the line in src/ rather than in dist/.
import { existsSync } from 'node:fs';

process.setSourceMapsEnabled(true);
const entry = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('switchboard: dist/ is missing; run `npm run build` (or `npm ci`, which builds it)\n');
  process.exit(1);
}
await import(entry.href);
