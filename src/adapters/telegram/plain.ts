/**
 * Telegram HTML → the same text without markup, for the resend after Telegram answered
 * "can't parse entities". Local stand-in until `telegramHtmlToPlain` from src/render is available;
 * it keeps link targets visible (`text (url)`) so nothing the answer said is lost.
 */
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|lt|gt|amp|quot);/gi, (whole, ref: string) => {
    const lower = ref.toLowerCase();
    if (lower in NAMED) return NAMED[lower];
    const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

export function telegramHtmlToPlain(html: string): string {
  const withLinks = html.replace(/<a\s[^>]*href\s*=\s*(["'])(.*?)\1[^>]*>([\s\S]*?)<\/a\s*>/gi, (_m, _q: string, href: string, inner: string) => {
    const label = inner.replace(/<[^>]*>/g, '');
    const url = decode(href);
    return decode(label) === url ? label : `${label} (${href})`;
  });
  return decode(withLinks.replace(/<\/?[A-Za-z][^>]*>/g, ''));
}
