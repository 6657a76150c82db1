// Preload (`node --import` / NODE_OPTIONS) for tests of what a command loads: when the process exits,
// writes the files of every CommonJS module it loaded (Node's require cache, which also holds the
// CommonJS packages an ES module imported), one a line, to $SWITCHBOARD_LOADED_MODULES.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const out = process.env.SWITCHBOARD_LOADED_MODULES;
if (out) {
  const cache = createRequire(import.meta.url).cache;
  process.on('exit', () => writeFileSync(out, `${Object.keys(cache).join('\n')}\n`));
}
