/**
 * The merchant's report as text (the terminal) and as one HTML document: sales from the orders, visits, the funnel,
 * web vitals and client errors, with charts of net sales and visits per day drawn as SVG on the server (no chart
 * library, no script), each with its figures in a table beside it for screen readers and for reading without the
 * picture. One style element (REPORT_STYLE) lays it out for a phone (390 px) and a laptop; the page route allows
 * exactly that style by its hash (REPORT_CONTENT_SECURITY_POLICY), so the document passes a strict CSP whether opened
 * as a file or served as a page. Private pages are never listed (the report holds none; see report.ts).
 */
import { createHash } from 'node:crypto';
import { isCurrencyCode } from '../../core/currency';
import { escapeHtml } from '../../core/html';
import { formatMoney } from '../../core/money';
import { PRIVATE_PAGES, PRIVATE_PAGES_LABEL } from '../../core/privatePath';
import { BASE_CONTENT_SECURITY_POLICY } from '../../render/contentSecurityPolicy';
import type { AnalyticsReport } from './report';

const percent = (share: number | null): string => (share === null ? '–' : `${Math.round(share * 1000) / 10}%`);
const metricValue = (metric: string, value: number): string =>
  metric === 'CLS' ? value.toFixed(3) : `${Math.round(value)} ms`;
/** Minor units as the shop writes its prices ('$1,234.50'); an unknown code as '1234.50 XYZ'. */
export const money = (minorUnits: number, currency: string): string =>
  isCurrencyCode(currency)
    ? formatMoney({ minorUnits, currency }).replace(/\u00a0/g, ' ')
    : `${(minorUnits / 100).toFixed(2)} ${currency}`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const pageName = (path: string) => (path === PRIVATE_PAGES ? PRIVATE_PAGES_LABEL : path);
const RATING_TEXT: Record<string, string> = {
  good: 'Good',
  'needs-improvement': 'Needs improvement',
  poor: 'Poor',
};

export function reportText(report: AnalyticsReport): string[] {
  const s = report.sales;
  const m = (n: number) => money(n, s.currency);
  const lines = [
    `Report of site '${report.siteId}', ${report.from} to ${report.to} (${report.days} days, UTC)`,
    '',
    'Sales (from the orders)',
    `  Net sales        ${m(s.netSales)}  (gross ${m(s.grossSales)} less refunds ${m(s.refunds.amount)})`,
    `  Orders           ${s.orders}   Average order ${s.averageOrder === null ? '–' : m(s.averageOrder)}`,
    `  Refunds          ${plural(s.refunds.orders, 'order')}, ${m(s.refunds.amount)}`,
    ...(s.awaitingPayment.orders > 0
      ? [
          `  Awaiting payment ${plural(s.awaitingPayment.orders, 'order')}, ${m(s.awaitingPayment.amount)} (not counted until paid)`,
        ]
      : []),
    ...(s.otherCurrencyOrders > 0
      ? [`  (${plural(s.otherCurrencyOrders, 'order')} in another currency than ${s.currency}, not counted)`]
      : []),
    '  Top products',
    ...(s.topProducts.length
      ? s.topProducts.map((p) => `  ${String(p.units).padStart(7)} ×  ${m(p.sales).padStart(12)}  ${p.title}`)
      : ['  (no sales)']),
    '',
    `Visits ${report.visits}   Unique visitors ${report.uniqueVisitors} (counted per day)   Page views ${report.pageViews}`,
    '',
    'Top pages',
    ...(report.topPages.length
      ? report.topPages.map(
          (p) => `  ${String(p.pageViews).padStart(7)}  ${String(p.visitors).padStart(7)} visitors  ${p.path}`,
        )
      : ['  (no page views)']),
    ...(report.privatePageViews > 0
      ? [`  (${plural(report.privatePageViews, 'view')} of private pages: checkout, orders, account; not listed)`]
      : []),
    '',
    'Shop funnel (visitors who reached each step and every step before it, the same day)',
    ...report.funnel.steps.map(
      (step) =>
        `  ${step.label.padEnd(18)} ${String(step.visitors).padStart(7)}${step.fromPrevious === null ? '' : `  (${percent(step.fromPrevious)} of the step before)`}`,
    ),
    `  Conversion (purchase per product page visitor): ${percent(report.funnel.conversion)}`,
    '',
    'Web vitals (p75 per page; good / needs improvement / poor)',
    ...(report.vitals.length
      ? report.vitals.map(
          (v) =>
            `  ${v.metric.padEnd(4)} ${metricValue(v.metric, v.p75).padStart(9)}  ${(v.rating ?? '').padEnd(17)} ${percent(v.shares.good)} / ${percent(v.shares.needsImprovement)} / ${percent(v.shares.poor)}  ${v.samples} samples  ${pageName(v.path)}`,
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

/** Every day of the report, oldest first. */
function reportDays(report: Pick<AnalyticsReport, 'from' | 'to'>): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${report.from}T00:00:00Z`); t <= Date.parse(`${report.to}T00:00:00Z`); t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/**
 * Bars per day (days without a value drawn empty; negative values, a day of refunds, drawn below the line). The SVG
 * has a title; each bar its own (a tooltip). The figures are also in the table beside it.
 */
function barChartSvg(
  id: string,
  title: string,
  days: readonly string[],
  values: ReadonlyMap<string, number>,
  label: (value: number) => string,
): string {
  const width = 720;
  const height = 200;
  const top = 10;
  const axis = 20;
  const list = days.map((day) => values.get(day) ?? 0);
  const max = Math.max(0, ...list);
  const min = Math.min(0, ...list);
  const span = Math.max(1, max - min);
  const plot = height - axis - top;
  const zero = top + Math.round((max / span) * plot);
  const bar = width / Math.max(1, days.length);
  const bars = days
    .map((day, i) => {
      const v = list[i] ?? 0;
      const h = Math.round((Math.abs(v) / span) * plot);
      const y = v >= 0 ? zero - h : zero;
      return `<rect class="${v >= 0 ? 'bar' : 'bar negative'}" x="${(i * bar + 1).toFixed(1)}" y="${y}" width="${Math.max(1, bar - 2).toFixed(1)}" height="${h}" fill="${v >= 0 ? '#2f6f4f' : '#a33'}"><title>${escapeHtml(day)}: ${escapeHtml(label(v))}</title></rect>`;
    })
    .join('');
  const first = days[0] ?? '';
  const last = days[days.length - 1] ?? '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="${id}-title" viewBox="0 0 ${width} ${height}">` +
    `<title id="${id}-title">${escapeHtml(title)}, ${escapeHtml(first)} to ${escapeHtml(last)} (highest ${escapeHtml(label(max))})</title>` +
    `${bars}<line x1="0" y1="${zero}" x2="${width}" y2="${zero}" stroke="#888"/>` +
    `<text x="0" y="${height - 4}" font-size="14" fill="#333">${escapeHtml(first)}</text>` +
    `<text x="${width}" y="${height - 4}" font-size="14" fill="#333" text-anchor="end">${escapeHtml(last)}</text></svg>`
  );
}

/** Bars of visits per day over the report's days (days without visits drawn empty). */
export function visitsChartSvg(report: AnalyticsReport): string {
  return barChartSvg(
    'visits-chart',
    'Visits per day',
    reportDays(report),
    new Map(report.daily.map((d) => [d.day, d.visits])),
    (v) => plural(v, 'visit'),
  );
}

/** Bars of net sales per day (from the orders). */
export function salesChartSvg(report: AnalyticsReport): string {
  return barChartSvg(
    'sales-chart',
    'Net sales per day',
    reportDays(report),
    new Map(report.sales.daily.map((d) => [d.day, d.netSales])),
    (v) => money(v, report.sales.currency),
  );
}

/** A table's box that scrolls sideways on a narrow screen: a named region the keyboard can reach and scroll. */
const scrollBox = (name: string) => `<div class="scroll" tabindex="0" role="region" aria-label="${escapeHtml(name)}">`;

type Cell = string | { text: string; className: string };
const cell = (c: Cell, tag: 'td' | 'th') =>
  typeof c === 'string'
    ? `<${tag}${tag === 'th' ? ' scope="row"' : ''}>${escapeHtml(c)}</${tag}>`
    : `<${tag} class="${c.className}"${tag === 'th' ? ' scope="row"' : ''}>${escapeHtml(c.text)}</${tag}>`;

/** A table with a caption and column headers; the first cell of each row heads it. Numbers align right. */
const table = (caption: string, headers: string[], rows: Cell[][], numeric: readonly number[] = []): string =>
  `${scrollBox(caption)}<table><caption>${escapeHtml(caption)}</caption><thead><tr>${headers
    .map((h, i) => `<th scope="col"${numeric.includes(i) ? ' class="num"' : ''}>${escapeHtml(h)}</th>`)
    .join('')}</tr></thead><tbody>${
    rows.length
      ? rows
          .map(
            (r) =>
              `<tr>${r
                .map((c, i) =>
                  cell(
                    numeric.includes(i) && typeof c === 'string' ? { text: c, className: 'num' } : c,
                    i === 0 ? 'th' : 'td',
                  ),
                )
                .join('')}</tr>`,
          )
          .join('')
      : `<tr><td colspan="${headers.length}">None yet.</td></tr>`
  }</tbody></table></div>`;

const figure = (name: string, value: string, note = '') =>
  `<div class="figure"><dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}${note ? `<span class="note">${escapeHtml(note)}</span>` : ''}</dd></div>`;

/** The report page's only style: a calm, dense layout readable from 390 px to a laptop, system fonts, no images. */
export const REPORT_STYLE = [
  ':root{color-scheme:light;--ink:#1c1c1c;--muted:#5c5c5c;--line:#dedede;--panel:#f6f6f3;--accent:#2f6f4f}',
  '*{box-sizing:border-box}',
  'body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:#fff}',
  'main{max-width:72rem;margin:0 auto;padding:1rem}',
  'h1{font-size:1.5rem;margin:.5rem 0 0}h2{font-size:1.2rem;margin:2rem 0 .75rem;padding-top:1rem;border-top:1px solid var(--line)}',
  '.period{color:var(--muted);margin:.25rem 0 1rem}',
  'dl.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:.5rem;margin:0 0 1rem}',
  '.figure{background:var(--panel);border-radius:6px;padding:.6rem .75rem}',
  '.figure dt{color:var(--muted);font-size:.85rem}.figure dd{margin:0;font-size:1.3rem;font-weight:600;font-variant-numeric:tabular-nums}',
  '.note{display:block;font-size:.8rem;font-weight:400;color:var(--muted)}',
  'figure{margin:0 0 1rem}figcaption{color:var(--muted);font-size:.85rem}',
  'svg{display:block;width:100%;height:auto;background:var(--panel);border-radius:6px}',
  '.scroll{overflow-x:auto;margin:0 0 1rem}',
  'table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}',
  'caption{text-align:left;font-weight:600;padding:.25rem 0}',
  'th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}',
  'thead th{font-size:.85rem;color:var(--muted);font-weight:600;white-space:nowrap}',
  'tbody th{font-weight:400;overflow-wrap:anywhere;min-width:8rem}',
  '.num{text-align:right;white-space:nowrap}',
  '.good{color:#1d6b3a}.needs-improvement{color:#8a5a00}.poor{color:#a12a2a}',
  'details{margin:0 0 1rem}summary{cursor:pointer;color:var(--accent)}',
  'pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:.8rem;margin:.25rem 0 0}',
  '.scroll:focus-visible,a:focus-visible,summary:focus-visible{outline:3px solid var(--accent);outline-offset:2px}',
  '.two{display:grid;gap:0 2rem}@media (min-width:60rem){.two{grid-template-columns:1fr 1fr}}',
].join('');

/** The report page's Content-Security-Policy: the pages' base policy with REPORT_STYLE allowed by its hash. */
export const REPORT_CONTENT_SECURITY_POLICY = BASE_CONTENT_SECURITY_POLICY.replace(
  "style-src 'self'",
  `style-src 'self' 'sha256-${createHash('sha256').update(REPORT_STYLE).digest('base64')}'`,
);

export function reportHtml(report: AnalyticsReport): string {
  const title = `Report of ${report.siteId}, ${report.from} to ${report.to}`;
  return [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${REPORT_STYLE}</style></head><body><main>`,
    `<h1>Report of ${escapeHtml(report.siteId)}</h1>`,
    reportPeriodHtml(report),
    reportSectionsHtml(report),
    '</main></body></html>',
  ].join('');
}

/** The report's period line ('2026-01-01 to 2026-01-30 (30 days, UTC)'). */
export const reportPeriodHtml = (report: AnalyticsReport): string =>
  `<p class="period">${escapeHtml(report.from)} to ${escapeHtml(report.to)} (${report.days} days, UTC)</p>`;

/**
 * The report's sections (sales, visits, speed and errors; h2 headings, charts each with its table), all text escaped:
 * the token page's body and the owner's report page (/admin/report) both show them.
 */
export function reportSectionsHtml(report: AnalyticsReport): string {
  const s = report.sales;
  const m = (n: number) => money(n, s.currency);
  const days = reportDays(report);
  const salesByDay = new Map(s.daily.map((d) => [d.day, d]));
  const visitsByDay = new Map(report.daily.map((d) => [d.day, d]));
  return [
    '<section aria-labelledby="sales"><h2 id="sales">Sales</h2>',
    '<dl class="figures">',
    figure('Net sales', m(s.netSales), `gross ${m(s.grossSales)}`),
    figure('Orders', String(s.orders)),
    figure('Average order', s.averageOrder === null ? '–' : m(s.averageOrder)),
    figure('Refunds', m(s.refunds.amount), plural(s.refunds.orders, 'order')),
    ...(s.awaitingPayment.orders > 0
      ? [
          figure(
            'Awaiting payment',
            m(s.awaitingPayment.amount),
            `${plural(s.awaitingPayment.orders, 'order')}, not counted until paid`,
          ),
        ]
      : []),
    '</dl>',
    ...(s.otherCurrencyOrders > 0
      ? [
          `<p>${escapeHtml(plural(s.otherCurrencyOrders, 'order'))} in another currency than ${escapeHtml(s.currency)} are not counted here.</p>`,
        ]
      : []),
    `<figure>${salesChartSvg(report)}<figcaption>Net sales per day (UTC), ${escapeHtml(report.from)} to ${escapeHtml(report.to)}: orders placed less refunds made that day</figcaption></figure>`,
    '<details><summary>Sales by day (table)</summary>',
    table(
      'Sales by day',
      ['Day', 'Orders', 'Gross sales', 'Refunds', 'Net sales'],
      days.map((day) => {
        const d = salesByDay.get(day);
        return [day, String(d?.orders ?? 0), m(d?.grossSales ?? 0), m(d?.refunds ?? 0), m(d?.netSales ?? 0)];
      }),
      [1, 2, 3, 4],
    ),
    '</details>',
    table(
      'Top products (paid orders)',
      ['Product', 'Units', 'Sold for'],
      s.topProducts.map((p) => [p.title, String(p.units), m(p.sales)]),
      [1, 2],
    ),
    '</section>',

    '<section aria-labelledby="visits"><h2 id="visits">Visits</h2>',
    '<dl class="figures">',
    figure('Visits', String(report.visits)),
    figure('Unique visitors', String(report.uniqueVisitors), 'counted per day'),
    figure('Page views', String(report.pageViews)),
    figure('Conversion', percent(report.funnel.conversion), 'purchases per product page visitor'),
    '</dl>',
    `<figure>${visitsChartSvg(report)}<figcaption>Visits per day (UTC), ${escapeHtml(report.from)} to ${escapeHtml(report.to)}</figcaption></figure>`,
    '<details><summary>Visits by day (table)</summary>',
    table(
      'Visits by day',
      ['Day', 'Visits', 'Visitors', 'Page views'],
      days.map((day) => {
        const d = visitsByDay.get(day);
        return [day, String(d?.visits ?? 0), String(d?.visitors ?? 0), String(d?.pageViews ?? 0)];
      }),
      [1, 2, 3],
    ),
    '</details>',
    '<div class="two"><div>',
    table(
      'Top pages',
      ['Page', 'Page views', 'Visitors'],
      report.topPages.map((p) => [p.path, String(p.pageViews), String(p.visitors)]),
      [1, 2],
    ),
    ...(report.privatePageViews > 0
      ? [
          `<p class="note">${escapeHtml(plural(report.privatePageViews, 'view'))} of private pages (checkout, orders, account) are counted but not listed.</p>`,
        ]
      : []),
    '</div><div>',
    table(
      'Shop funnel (visitors who reached the step and every step before it, the same day)',
      ['Step', 'Visitors', 'Of the step before'],
      report.funnel.steps.map((step) => [
        step.label,
        String(step.visitors),
        step.fromPrevious === null ? '' : percent(step.fromPrevious),
      ]),
      [1, 2],
    ),
    '</div></div></section>',

    '<section aria-labelledby="speed"><h2 id="speed">Speed and errors</h2>',
    table(
      'Web vitals (p75 per page)',
      ['Page', 'Metric', 'p75', 'Rating', 'Good', 'Needs improvement', 'Poor', 'Samples'],
      report.vitals.map((v) => [
        pageName(v.path),
        v.metric,
        metricValue(v.metric, v.p75),
        v.rating ? { text: RATING_TEXT[v.rating] ?? v.rating, className: v.rating } : '',
        percent(v.shares.good),
        percent(v.shares.needsImprovement),
        percent(v.shares.poor),
        String(v.samples),
      ]),
      [2, 4, 5, 6, 7],
    ),
    `${scrollBox('Client errors')}<table><caption>Client errors</caption><thead><tr><th scope="col">Message</th><th scope="col" class="num">Count</th><th scope="col" class="num">Visitors</th></tr></thead><tbody>${
      report.errors.length
        ? report.errors
            .map(
              (e) =>
                `<tr><th scope="row">${escapeHtml(e.message)}${e.sampleStack ? `<details><summary>Sample stack</summary><pre>${escapeHtml(e.sampleStack)}</pre></details>` : ''}</th><td class="num">${e.count}</td><td class="num">${e.visitors}</td></tr>`,
            )
            .join('')
        : '<tr><td colspan="3">None yet.</td></tr>'
    }</tbody></table></div>`,
    '</section>',
  ].join('');
}
