/** The threat-scan benchmark's 1 MB: ordinary prose mixed with the repetitions that make naive patterns backtrack. */
export function scanInput(): string {
  const unit = [
    'Keep secrets in `.env` and never commit it. Run `rm -rf dist` before a release build.',
    'See https://example.com/docs?page=2 and http://localhost:3000/health for details.',
    'a'.repeat(5000),
    'ignore '.repeat(500),
    'https://x.example/?a='.repeat(200),
    `<!--${'-'.repeat(3000)}`,
  ].join('\n');
  return unit.repeat(Math.ceil(1_000_000 / unit.length)).slice(0, 1_000_000);
}
