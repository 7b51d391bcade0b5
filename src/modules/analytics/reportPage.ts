/**
 * The merchant's report as text (the terminal) and as one HTML document with a chart of visits per day drawn as SVG
 * on the server: no chart library, no script, no style element (SVG presentation attributes only), so the document
 * passes the storefront's CSP whether opened as a file or served as a page.
 */
import type { AnalyticsReport } from './report';
import { escapeHtml } from '../../render/document';

const percent = (share: number | null): string => (share === null ? '–' : `${Math.round(share * 1000) / 10}%`);
const metricValue = (metric: string, value: number): string =>
  metric === 'CLS' ? value.toFixed(3) : `${Math.round(value)} ms`;
const money = (value: number, currency: string): string => `${value.toFixed(currency === 'JPY' ? 0 : 2)} ${currency}`;

export function reportText(report: AnalyticsReport): string[] {
  const lines = [
    `Analytics of site '${report.siteId}', ${report.from} to ${report.to} (${report.days} days, UTC)`,
    '',
    `Visits ${report.visits}   Unique visitors ${report.uniqueVisitors} (counted per day)   Page views ${report.pageViews}`,
    '',
    'Top pages',
    ...(report.topPages.length
      ? report.topPages.map(
          (p) => `  ${String(p.pageViews).padStart(7)}  ${String(p.visitors).padStart(7)} visitors  ${p.path}`,
        )
      : ['  (no page views)']),
    '',
    'Shop funnel (visitors)',
    ...report.funnel.steps.map(
      (s) =>
        `  ${s.label.padEnd(18)} ${String(s.visitors).padStart(7)}${s.fromPrevious === null ? '' : `  (${percent(s.fromPrevious)} of the step before)`}`,
    ),
    `  Conversion (purchase per product page visitor): ${percent(report.funnel.conversion)}`,
    `  Revenue: ${money(report.revenue.value, report.revenue.currency)} from ${report.revenue.orders} order${report.revenue.orders === 1 ? '' : 's'}`,
    '',
    'Web vitals (p75 per page; good / needs improvement / poor)',
    ...(report.vitals.length
      ? report.vitals.map(
          (v) =>
            `  ${v.metric.padEnd(4)} ${metricValue(v.metric, v.p75).padStart(9)}  ${(v.rating ?? '').padEnd(17)} ${percent(v.shares.good)} / ${percent(v.shares.needsImprovement)} / ${percent(v.shares.poor)}  ${v.samples} samples  ${v.path}`,
        )
      : ['  (no measurements)']),
    '',
    'Client errors',
    ...(report.errors.length
      ? report.errors.flatMap((e) => [
          `  ${String(e.count).padStart(5)}×  ${e.message}`,
          ...(e.sampleStack ? [`         ${e.sampleStack.split('\n')[0] ?? ''}`] : []),
        ])
      : ['  (none)']),
  ];
  return lines;
}

/** Bars of visits per day over the report's days (days without visits drawn empty). */
export function visitsChartSvg(report: AnalyticsReport): string {
  const days: string[] = [];
  for (let t = Date.parse(`${report.from}T00:00:00Z`); t <= Date.parse(`${report.to}T00:00:00Z`); t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10));
  const visits = new Map(report.daily.map((d) => [d.day, d.visits]));
  const max = Math.max(1, ...days.map((d) => visits.get(d) ?? 0));
  const width = 720;
  const height = 200;
  const bar = width / Math.max(1, days.length);
  const bars = days
    .map((day, i) => {
      const v = visits.get(day) ?? 0;
      const h = Math.round((v / max) * (height - 30));
      return `<rect x="${(i * bar + 1).toFixed(1)}" y="${height - 20 - h}" width="${Math.max(1, bar - 2).toFixed(1)}" height="${h}" fill="#2f6f4f"><title>${escapeHtml(day)}: ${v} visits</title></rect>`;
    })
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="visits-chart-title" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">` +
    `<title id="visits-chart-title">Visits per day, ${escapeHtml(report.from)} to ${escapeHtml(report.to)} (highest ${max})</title>` +
    `<line x1="0" y1="${height - 20}" x2="${width}" y2="${height - 20}" stroke="#888"/>${bars}` +
    `<text x="0" y="${height - 4}" font-size="12" fill="#333">${escapeHtml(report.from)}</text>` +
    `<text x="${width}" y="${height - 4}" font-size="12" fill="#333" text-anchor="end">${escapeHtml(report.to)}</text></svg>`
  );
}

const table = (caption: string, headers: string[], rows: string[][]): string =>
  `<table><caption>${escapeHtml(caption)}</caption><thead><tr>${headers.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${
    rows.length
      ? rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('')
      : `<tr><td colspan="${headers.length}">None yet.</td></tr>`
  }</tbody></table>`;

export function reportHtml(report: AnalyticsReport): string {
  const title = `Analytics of ${report.siteId}, ${report.from} to ${report.to}`;
  return [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head><body><main>`,
    `<h1>${escapeHtml(title)}</h1>`,
    `<p>Visits <strong>${report.visits}</strong> · Unique visitors <strong>${report.uniqueVisitors}</strong> (counted per day) · Page views <strong>${report.pageViews}</strong></p>`,
    `<figure>${visitsChartSvg(report)}<figcaption>Visits per day (UTC)</figcaption></figure>`,
    table(
      'Top pages',
      ['Page', 'Page views', 'Visitors'],
      report.topPages.map((p) => [p.path, String(p.pageViews), String(p.visitors)]),
    ),
    table(
      'Shop funnel',
      ['Step', 'Visitors', 'Of the step before'],
      report.funnel.steps.map((s) => [
        s.label,
        String(s.visitors),
        s.fromPrevious === null ? '' : percent(s.fromPrevious),
      ]),
    ),
    `<p>Conversion: <strong>${percent(report.funnel.conversion)}</strong> · Revenue: <strong>${escapeHtml(money(report.revenue.value, report.revenue.currency))}</strong> from ${report.revenue.orders} orders</p>`,
    table(
      'Web vitals (p75 per page)',
      ['Page', 'Metric', 'p75', 'Rating', 'Good', 'Needs improvement', 'Poor', 'Samples'],
      report.vitals.map((v) => [
        v.path,
        v.metric,
        metricValue(v.metric, v.p75),
        v.rating ?? '',
        percent(v.shares.good),
        percent(v.shares.needsImprovement),
        percent(v.shares.poor),
        String(v.samples),
      ]),
    ),
    table(
      'Client errors',
      ['Message', 'Count', 'Visitors', 'Sample stack'],
      report.errors.map((e) => [e.message, String(e.count), String(e.visitors), e.sampleStack ?? '']),
    ),
    '</main></body></html>',
  ].join('');
}
