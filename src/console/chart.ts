/**
 * The 7-day chart as inline SVG, drawn on the server: no script, no chart library, readable without
 * JavaScript. Bars: messages per day; line: prompt-cache hit rate (0–100 %, right axis).
 */
import { html, type Markup } from './html.js';

export interface ChartDay {
  /** `YYYY-MM-DD` */
  date: string;
  messages: number;
  /** 0..1, or null on a day without model calls. */
  cacheHitRate: number | null;
}

const W = 640;
const H = 200;
const PAD = { left: 44, right: 44, top: 12, bottom: 28 };

export function activityChart(days: readonly ChartDay[]): Markup {
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const max = Math.max(1, ...days.map((d) => d.messages));
  const slot = innerW / Math.max(1, days.length);
  const barW = Math.max(4, slot * 0.6);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const yRate = (r: number) => PAD.top + innerH - r * innerH;
  const cx = (i: number) => PAD.left + slot * i + slot / 2;
  const bars = days.map(
    (d, i) =>
      html`<rect class="bar" x="${(cx(i) - barW / 2).toFixed(1)}" y="${y(d.messages).toFixed(1)}" width="${barW.toFixed(1)}" height="${(PAD.top + innerH - y(d.messages)).toFixed(1)}"><title>${d.date}: ${d.messages} ${d.messages === 1 ? 'message' : 'messages'}</title></rect>
<text class="tick" x="${cx(i).toFixed(1)}" y="${H - 10}" text-anchor="middle">${d.date.slice(5)}</text>`,
  );
  const points = days.flatMap((d, i) => (d.cacheHitRate === null ? [] : [`${cx(i).toFixed(1)},${yRate(d.cacheHitRate).toFixed(1)}`]));
  const dots = days.flatMap((d, i) =>
    d.cacheHitRate === null
      ? []
      : [html`<circle class="dot" cx="${cx(i).toFixed(1)}" cy="${yRate(d.cacheHitRate).toFixed(1)}" r="3"><title>${d.date}: cache hit rate ${Math.round(d.cacheHitRate * 100)} %</title></circle>`],
  );
  return html`<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="Messages and prompt-cache hit rate, last ${days.length} days" xmlns="http://www.w3.org/2000/svg">
<line class="axis" x1="${PAD.left}" y1="${PAD.top + innerH}" x2="${W - PAD.right}" y2="${PAD.top + innerH}"/>
<text class="tick" x="${PAD.left - 6}" y="${PAD.top + 4}" text-anchor="end">${max}</text>
<text class="tick" x="${PAD.left - 6}" y="${PAD.top + innerH}" text-anchor="end">0</text>
<text class="tick rate" x="${W - PAD.right + 6}" y="${PAD.top + 4}">100%</text>
<text class="tick rate" x="${W - PAD.right + 6}" y="${PAD.top + innerH}">0%</text>
${bars}
${points.length > 1 ? html`<polyline class="line" points="${points.join(' ')}"/>` : ''}
${dots}
</svg>`;
}
