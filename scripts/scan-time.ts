/**
 * Times the bench's threat scan alone: `scanText` of bench/prompt.ts's 1 MB text, N times (default
 * 30), after a warm-up; prints the median and mean in ms. For profiling: node --cpu-prof --import tsx scripts/scan-time.ts
 */
import { performance } from 'node:perf_hooks';
import type { scanText as ScanText } from '../src/guard/scan.js';
import { scanInput } from '../bench/scan-input.js';

// SCAN_ROOT=/other/checkout times that checkout's scanner (A/B runs against another branch)
const root = process.env.SCAN_ROOT ? `${process.env.SCAN_ROOT}/src/core/prompt/threat-scan.js` : '../src/guard/scan.js';
const { scanText } = (await import(root)) as { scanText: typeof ScanText };

const n = Number(process.argv[2] ?? 30);
const text = scanInput();
scanText(text.slice(0, 10_000), 'context');
for (let i = 0; i < 3; i++) scanText(text, 'context');
const times: number[] = [];
const cpu: number[] = [];
for (let i = 0; i < n; i++) {
  const t = performance.now();
  const c = process.cpuUsage();
  scanText(text, 'context');
  const d = process.cpuUsage(c);
  cpu.push((d.user + d.system) / 1000);
  times.push(performance.now() - t);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
// CPU time is steadier than wall time on a shared machine (it leaves out time spent waiting for a core)
console.log(`wall median ${median(times).toFixed(1)} ms, min ${Math.min(...times).toFixed(1)} ms; cpu median ${median(cpu).toFixed(1)} ms, min ${Math.min(...cpu).toFixed(1)} ms (n=${n})`);
