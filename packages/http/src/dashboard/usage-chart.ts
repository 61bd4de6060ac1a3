import { html, type Html } from './html.js';
import { scrollTable } from './layout.js';

/**
 * A small inline SVG bar chart of credits per day (no script, no library), with the same numbers
 * in a table for screen readers and for reading exact values.
 */
export interface DayAmount {
  day: string;
  amount: number;
}

const width = 600;
const height = 150;
const top = 10;
const bottom = 20;

export function usageChart(days: DayAmount[], unit: string): Html {
  const most = Math.max(1, ...days.map((entry) => entry.amount));
  const slot = width / Math.max(days.length, 1);
  const barWidth = Math.max(2, slot * 0.7);
  const scale = (height - top - bottom) / most;
  const total = days.reduce((sum, entry) => sum + entry.amount, 0);
  const bars = days.map((entry, index) => {
    const barHeight = Math.max(entry.amount > 0 ? 1 : 0, entry.amount * scale);
    const x = index * slot + (slot - barWidth) / 2;
    const y = height - bottom - barHeight;
    return html`<rect class="bar" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${barHeight.toFixed(1)}"><title>${entry.day}: ${entry.amount} ${unit}</title></rect>`;
  });
  const first = days[0]?.day ?? '';
  const last = days[days.length - 1]?.day ?? '';
  const summary = `${total} ${unit} from ${first} to ${last}; most in one day: ${most === 1 && total === 0 ? 0 : most}`;
  return html`<figure class="chart">
<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${`${unit} per day: ${summary}`}" focusable="false">
  <line class="axis" x1="0" y1="${height - bottom}" x2="${width}" y2="${height - bottom}"></line>
  <text x="0" y="${height - 5}">${first}</text>
  <text x="${width}" y="${height - 5}" text-anchor="end">${last}</text>
  <text x="0" y="${top}">${most === 1 && total === 0 ? 0 : most}</text>
  ${bars}
</svg>
<figcaption class="muted">${unit[0]?.toUpperCase()}${unit.slice(1)} per day (UTC): ${summary}.</figcaption>
<details><summary>Show the numbers</summary>
${scrollTable(
  `${unit} per day`,
  html`<table><thead><tr><th scope="col">Day</th><th scope="col" class="number">${unit}</th></tr></thead><tbody>${days
    .filter((entry) => entry.amount > 0)
    .map((entry) => html`<tr><td>${entry.day}</td><td class="number">${entry.amount}</td></tr>`)}</tbody></table>`,
)}
</details>
</figure>`;
}
