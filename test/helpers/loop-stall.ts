/**
 * The longest the event loop went without running a 1 ms timer while `work` ran, and one tick after:
 * what a door waiting on the loop would have waited (tests and bench/render.ts). The probe starts 5 ms
 * before `work`, so its own first tick does not count.
 */
export async function loopStallMs(work: () => unknown): Promise<number> {
  let last = performance.now();
  let worst = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 1);
  try {
    await new Promise((r) => setTimeout(r, 5));
    last = performance.now();
    worst = 0;
    await work();
    await new Promise((r) => setTimeout(r, 2));
    return Math.max(worst, performance.now() - last);
  } finally {
    clearInterval(probe);
  }
}
