import type { DailyUsage, Ledger, Team } from '@quarry/core';
import { html, type Html } from './html.js';
import { formatCredits, scrollTable } from './layout.js';
import { usageChart } from './usage-chart.js';

/**
 * A team's credits and tokens: what remains, what was used per day over the last 30 days (a
 * chart), and per endpoint kind. Shown to the team itself and, for every team, to the admin.
 */
export const usageWindowDays = 30;
const dayMs = 86_400_000;

/** Endpoint kinds by the reason their charges are recorded with; unknown reasons show as they are. */
const reasonLabels: Record<string, string> = {
  scrape: 'Scrape',
  page: 'Crawl and batch scrape pages',
  map: 'Map',
  search: 'Search',
  extract: 'Extract',
  deep_research: 'Deep research',
  llmstxt: 'llms.txt',
  agent: 'Agent',
};

export interface UsageSummary {
  days: Array<{ day: string; credits: number; tokens: number }>;
  byReason: Array<{ reason: string; credits: number; tokens: number }>;
  credits: number;
  tokens: number;
}

export async function loadUsage(ledger: Ledger, teamId: string, now: number): Promise<UsageSummary> {
  const firstDay = Math.floor(now / dayMs) * dayMs - (usageWindowDays - 1) * dayMs;
  return summarize(await ledger.usageByDay(teamId, { since: firstDay }), firstDay);
}

export function summarize(rows: DailyUsage[], firstDay: number): UsageSummary {
  const days = Array.from({ length: usageWindowDays }, (_, index) => ({
    day: new Date(firstDay + index * dayMs).toISOString().slice(0, 10),
    credits: 0,
    tokens: 0,
  }));
  const dayIndex = new Map(days.map((entry, index) => [entry.day, index]));
  const reasons = new Map<string, { reason: string; credits: number; tokens: number }>();
  for (const row of rows) {
    const field = row.kind === 'tokens' ? 'tokens' : 'credits';
    const index = dayIndex.get(row.day);
    if (index !== undefined) days[index]![field] += row.amount;
    const entry = reasons.get(row.reason) ?? { reason: row.reason, credits: 0, tokens: 0 };
    entry[field] += row.amount;
    reasons.set(row.reason, entry);
  }
  return {
    days,
    byReason: [...reasons.values()].sort((a, b) => b.credits - a.credits || b.tokens - a.tokens),
    credits: days.reduce((sum, entry) => sum + entry.credits, 0),
    tokens: days.reduce((sum, entry) => sum + entry.tokens, 0),
  };
}

export function renderUsage(team: Team, usage: UsageSummary): Html {
  const stat = (label: string, value: string) => html`<div class="stat"><div class="value">${value}</div><div class="label">${label}</div></div>`;
  return html`
<div class="stats">
  ${stat('Credits remaining', formatCredits(team.credits))}
  ${stat(`Credits used, last ${usageWindowDays} days`, usage.credits.toLocaleString('en-US'))}
  ${stat(`Tokens used, last ${usageWindowDays} days`, usage.tokens.toLocaleString('en-US'))}
  ${stat('Tokens used, all time', team.tokensUsed.toLocaleString('en-US'))}
</div>
<h2>Credits per day</h2>
${usageChart(
  usage.days.map((entry) => ({ day: entry.day, amount: entry.credits })),
  'credits',
)}
${
  usage.tokens > 0
    ? html`<h2>Tokens per day</h2>${usageChart(
        usage.days.map((entry) => ({ day: entry.day, amount: entry.tokens })),
        'tokens',
      )}`
    : ''
}
<h2>Per endpoint kind, last ${usageWindowDays} days</h2>
${
  usage.byReason.length === 0
    ? html`<p class="muted">Nothing used yet.</p>`
    : scrollTable(
        'Usage per endpoint kind',
        html`<table><thead><tr><th scope="col">Endpoint kind</th><th scope="col" class="number">Credits</th><th scope="col" class="number">Tokens</th></tr></thead>
<tbody>${usage.byReason.map(
          (entry) =>
            html`<tr><td>${reasonLabels[entry.reason] ?? entry.reason}</td><td class="number">${entry.credits.toLocaleString('en-US')}</td><td class="number">${entry.tokens.toLocaleString('en-US')}</td></tr>`,
        )}</tbody></table>`,
      )
}`;
}
