/**
 * HTML built from tagged templates: every interpolated value is escaped unless it is markup made by
 * `html` itself, so text from a chat (`<script>…`) can only ever show as text.
 */
const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESC[c]);
}

/** Markup that is already safe (made by `html`). */
export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Value = Markup | string | number | boolean | null | undefined | readonly Value[];

function part(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map(part).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Markup {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += part(values[i]) + strings[i + 1];
  return new Markup(out);
}

/** Markup from a trusted constant (the stylesheet link, an SVG built from numbers). */
export const trusted = (text: string): Markup => new Markup(text);
