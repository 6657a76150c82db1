/** Times threat-corpus.test.ts's "attack buried in a long benign file" loop (SCAN_ROOT= another checkout). */
import { performance } from 'node:perf_hooks';
import type * as Scan from '../src/guard/scan.js';
import { ATTACKS, BENIGN } from '../test/guard/corpus.js';
const root = process.env.SCAN_ROOT ?? '..';
const { scanText } = (await import(`${root}/src/core/prompt/threat-scan.js`)) as typeof Scan;
const benign = BENIGN.map((e) => e.text.replace(/^\uFEFF/, '')).join('\n\n');
const t = performance.now();
const c = process.cpuUsage();
let blocked = 0;
for (const attack of ATTACKS) if (scanText(`${benign}\n\n${attack.text}\n\n${benign}`, 'context').blocked) blocked++;
const d = process.cpuUsage(c);
console.log(`${ATTACKS.length} scans of ${benign.length * 2} chars: wall ${(performance.now() - t).toFixed(0)} ms, cpu ${((d.user + d.system) / 1000).toFixed(0)} ms, blocked ${blocked}`);
