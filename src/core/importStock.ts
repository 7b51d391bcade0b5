/**
 * Which stock a site-file import stores (issue 23). Stock is live data: sales take it, refunds put it back, and a site
 * file is usually older than the last sale. So an import keeps every stored variant's stock — matched by SKU, both
 * whether it is counted (`unlimited`) and the count — unless the owner asks for the file's: for every variant
 * (`vitrine import FILE --stock file`) or for named SKUs (`--stock file:SKU,SKU`). A variant new to the site takes
 * the file's stock. What was kept and what changed is told back (`describeImportStock`).
 */

/** A variant's stock as stored (`qtyInStock` is 0 when unlimited). */
export interface StockLevel {
  unlimited: boolean;
  qtyInStock: number;
}

/** 'live' (the default): keep the stored stock; 'file': the file's for every variant; `{ skus }`: the file's for those. */
export type ImportStockChoice = 'live' | 'file' | { skus: readonly string[] };

export interface StockDifference {
  sku: string;
  live: StockLevel;
  file: StockLevel;
}

export interface ImportStockPlan {
  /** The stock to store for each variant of the file, by SKU. */
  levels: Map<string, StockLevel>;
  /** Stored variants that kept their live stock. */
  kept: number;
  /** Those of them whose stock in the file is different (in the file's order). */
  keptDiffering: StockDifference[];
  /** Stored variants that took the file's stock, as asked. */
  fromFile: number;
  /** Those of them whose stock changed (in the file's order). */
  changed: StockDifference[];
  /** Variants new to the site: they take the file's stock. */
  added: number;
}

export const sameStock = (a: StockLevel, b: StockLevel): boolean =>
  a.unlimited ? b.unlimited : !b.unlimited && a.qtyInStock === b.qtyInStock;

const normalized = (s: StockLevel): StockLevel =>
  s.unlimited ? { unlimited: true, qtyInStock: 0 } : { unlimited: false, qtyInStock: s.qtyInStock };

/** The stock each variant of the file gets, given the stored stock (`live`, by SKU) and the owner's choice. */
export function planImportStock(
  live: ReadonlyMap<string, StockLevel>,
  fileVariants: readonly { sku: string; stock: StockLevel }[],
  choice: ImportStockChoice = 'live',
): ImportStockPlan {
  const named = typeof choice === 'object' ? new Set(choice.skus) : undefined;
  const fromFile = (sku: string): boolean => choice === 'file' || (named?.has(sku) ?? false);
  const plan: ImportStockPlan = { levels: new Map(), kept: 0, keptDiffering: [], fromFile: 0, changed: [], added: 0 };
  for (const { sku, stock } of fileVariants) {
    const file = normalized(stock);
    const stored = live.get(sku);
    if (stored === undefined) {
      plan.levels.set(sku, file);
      plan.added++;
    } else if (fromFile(sku)) {
      plan.levels.set(sku, file);
      plan.fromFile++;
      if (!sameStock(stored, file)) plan.changed.push({ sku, live: normalized(stored), file });
    } else {
      plan.levels.set(sku, normalized(stored));
      plan.kept++;
      if (!sameStock(stored, file)) plan.keptDiffering.push({ sku, live: normalized(stored), file });
    }
  }
  return plan;
}

const SKU = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const IMPORT_STOCK_OPTION_FORMS = 'live, file or file:SKU,SKU…';

/** The `--stock` option's value: `live`, `file` or `file:SKU,SKU…` (SKUs as in the site file). undefined: not one of those. */
export function parseImportStockOption(value: string): ImportStockChoice | undefined {
  if (value === 'live' || value === 'file') return value;
  if (!value.startsWith('file:')) return undefined;
  const skus = value
    .slice('file:'.length)
    .split(',')
    .map((s) => s.trim());
  if (skus.length === 0 || !skus.every((s) => SKU.test(s))) return undefined;
  return { skus: [...new Set(skus)] };
}

/** Lines listed per kind of difference before '… and N more'. */
export const STOCK_LINES_SHOWN = 20;

const stockText = (s: StockLevel): string => (s.unlimited ? 'unlimited' : String(s.qtyInStock));
const variants = (n: number): string => `${n} variant${n === 1 ? '' : 's'}`;

/**
 * What an import did with the stock, for the terminal:
 *
 *     Stock: kept the live stock of 41 variants; 1 new variant took the file's stock.
 *       Live stock kept where the file differs (--stock file:SKU,… takes the file's):
 *         PLATE-OAT  0 (file: 2)
 *
 * With `--stock file`: 'took the file's stock for 42 variants', then 'Changed to the file's stock:' and '2 (was 0)'.
 */
export function describeImportStock(plan: ImportStockPlan): string[] {
  const parts = [
    plan.kept > 0 ? `kept the live stock of ${variants(plan.kept)}` : '',
    plan.fromFile > 0 ? `took the file's stock for ${variants(plan.fromFile)}` : '',
    plan.added > 0 ? `${plan.added} new variant${plan.added === 1 ? '' : 's'} took the file's stock` : '',
  ].filter(Boolean);
  if (parts.length === 0) return [];
  const lines = [`Stock: ${parts.join('; ')}.`];
  const list = (differences: StockDifference[], text: (d: StockDifference) => string) => {
    const width = Math.max(...differences.slice(0, STOCK_LINES_SHOWN).map((d) => d.sku.length));
    for (const d of differences.slice(0, STOCK_LINES_SHOWN)) lines.push(`    ${d.sku.padEnd(width)}  ${text(d)}`);
    if (differences.length > STOCK_LINES_SHOWN) lines.push(`    … and ${differences.length - STOCK_LINES_SHOWN} more`);
  };
  if (plan.keptDiffering.length > 0) {
    lines.push(`  Live stock kept where the file differs (--stock file:SKU,… takes the file's):`);
    list(plan.keptDiffering, (d) => `${stockText(d.live)} (file: ${stockText(d.file)})`);
  }
  if (plan.changed.length > 0) {
    lines.push(`  Changed to the file's stock:`);
    list(plan.changed, (d) => `${stockText(d.file)} (was ${stockText(d.live)})`);
  }
  return lines;
}
