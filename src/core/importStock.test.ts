import { describe, expect, it } from 'vitest';
import {
  describeImportStock,
  parseImportStockOption,
  planImportStock,
  STOCK_LINES_SHOWN,
  type StockLevel,
} from './importStock';

const qty = (qtyInStock: number): StockLevel => ({ unlimited: false, qtyInStock });
const UNLIMITED: StockLevel = { unlimited: true, qtyInStock: 0 };

const live = new Map<string, StockLevel>([
  ['PLATE', qty(0)],
  ['MUG', qty(12)],
  ['EBOOK', UNLIMITED],
  ['VASE', qty(3)],
]);
const file = [
  { sku: 'PLATE', stock: qty(2) },
  { sku: 'MUG', stock: qty(12) },
  { sku: 'EBOOK', stock: qty(5) },
  { sku: 'VASE', stock: UNLIMITED },
  { sku: 'BOWL', stock: qty(6) },
];

describe('planImportStock', () => {
  it("keeps the live stock of stored variants (count and unlimited); new ones take the file's", () => {
    const plan = planImportStock(live, file);
    expect(plan.levels).toEqual(
      new Map([
        ['PLATE', qty(0)],
        ['MUG', qty(12)],
        ['EBOOK', UNLIMITED],
        ['VASE', qty(3)],
        ['BOWL', qty(6)],
      ]),
    );
    expect(plan).toMatchObject({ kept: 4, fromFile: 0, added: 1, changed: [] });
    expect(plan.keptDiffering).toEqual([
      { sku: 'PLATE', live: qty(0), file: qty(2) },
      { sku: 'EBOOK', live: UNLIMITED, file: qty(5) },
      { sku: 'VASE', live: qty(3), file: UNLIMITED },
    ]);
  });

  it("takes the file's stock for every variant, or for the named SKUs", () => {
    const all = planImportStock(live, file, 'file');
    expect([...all.levels.values()]).toEqual([qty(2), qty(12), qty(5), UNLIMITED, qty(6)]);
    expect(all).toMatchObject({ kept: 0, keptDiffering: [], fromFile: 4, added: 1 });
    expect(all.changed.map((d) => d.sku)).toEqual(['PLATE', 'EBOOK', 'VASE']);

    const some = planImportStock(live, file, { skus: ['PLATE', 'MUG', 'BOWL'] });
    expect(some.levels.get('PLATE')).toEqual(qty(2));
    expect(some.levels.get('VASE')).toEqual(qty(3));
    expect(some).toMatchObject({
      kept: 2,
      fromFile: 2,
      added: 1,
      changed: [{ sku: 'PLATE', live: qty(0), file: qty(2) }],
    });
  });

  it('reads an unlimited stock with a stray count as unlimited', () => {
    const plan = planImportStock(new Map([['X', { unlimited: true, qtyInStock: 4 }]]), [
      { sku: 'X', stock: UNLIMITED },
    ]);
    expect(plan.levels.get('X')).toEqual(UNLIMITED);
    expect(plan.keptDiffering).toEqual([]);
  });
});

describe('parseImportStockOption', () => {
  it('reads live, file and file:SKU,SKU', () => {
    expect(parseImportStockOption('live')).toBe('live');
    expect(parseImportStockOption('file')).toBe('file');
    expect(parseImportStockOption('file:MUG-OAT,DINNER-PLATE-OAT,MUG-OAT')).toEqual({
      skus: ['MUG-OAT', 'DINNER-PLATE-OAT'],
    });
    expect(parseImportStockOption('file: a.1 , b_2')).toEqual({ skus: ['a.1', 'b_2'] });
  });

  it('refuses anything else', () => {
    for (const value of ['', 'File', 'files', 'file:', 'file:,', 'file:MUG,', 'file:-MUG', 'MUG-OAT', 'file:MUG OAT']) {
      expect(parseImportStockOption(value), value).toBeUndefined();
    }
  });
});

describe('describeImportStock', () => {
  it('says what was kept, where the file differs, and what is new', () => {
    expect(describeImportStock(planImportStock(live, file))).toEqual([
      "Stock: kept the live stock of 4 variants; 1 new variant took the file's stock.",
      "  Live stock kept where the file differs (--stock file:SKU,… takes the file's):",
      '    PLATE  0 (file: 2)',
      '    EBOOK  unlimited (file: 5)',
      '    VASE   3 (file: unlimited)',
    ]);
  });

  it("says what changed to the file's stock", () => {
    expect(describeImportStock(planImportStock(live, file, { skus: ['PLATE'] }))).toEqual([
      "Stock: kept the live stock of 3 variants; took the file's stock for 1 variant; 1 new variant took the file's stock.",
      "  Live stock kept where the file differs (--stock file:SKU,… takes the file's):",
      '    EBOOK  unlimited (file: 5)',
      '    VASE   3 (file: unlimited)',
      "  Changed to the file's stock:",
      '    PLATE  2 (was 0)',
    ]);
    expect(describeImportStock(planImportStock(new Map(), file))).toEqual([
      "Stock: 5 new variants took the file's stock.",
    ]);
    expect(describeImportStock(planImportStock(new Map(), []))).toEqual([]);
  });

  it('lists at most 20 of a kind, then how many more', () => {
    const many = Array.from({ length: STOCK_LINES_SHOWN + 5 }, (_, i) => `SKU-${String(i).padStart(2, '0')}`);
    const lines = describeImportStock(
      planImportStock(
        new Map(many.map((sku) => [sku, qty(0)])),
        many.map((sku) => ({ sku, stock: qty(1) })),
      ),
    );
    expect(lines).toHaveLength(2 + STOCK_LINES_SHOWN + 1);
    expect(lines.at(-2)).toBe('    SKU-19  0 (file: 1)');
    expect(lines.at(-1)).toBe('    … and 5 more');
  });
});
