import { describe, expect, it } from 'vitest';
import type { StockChange } from './stockChanges';
import { StockChangeLog } from './stockWatch';

const change = (sku: string, seq: number, productId = sku.split('-')[0]!, siteId = 'demo'): StockChange => ({
  siteId,
  productId,
  sku,
  seq,
});
const products = (changed: Map<string, Set<string>>) =>
  Object.fromEntries([...changed].map(([site, ids]) => [site, [...ids].sort()]));

describe('StockChangeLog', () => {
  it('reports each change once, by site and product', () => {
    const log = new StockChangeLog(10);
    expect(log.floor).toBe(10);
    expect(
      products(
        log.take([change('plate-oat', 11), change('plate-sage', 12), change('mug-1', 13, 'mug', 'other')], 0, 5000),
      ),
    ).toEqual({
      demo: ['plate'],
      other: ['mug'],
    });
    // Read again within the overlap: the same numbers are not news.
    expect(
      products(
        log.take([change('plate-oat', 11), change('plate-sage', 12), change('mug-1', 13, 'mug', 'other')], 100, 5000),
      ),
    ).toEqual({});
    // A later change of a variant already seen is.
    expect(
      products(
        log.take([change('plate-sage', 12), change('mug-1', 13, 'mug', 'other'), change('plate-oat', 14)], 200, 5000),
      ),
    ).toEqual({ demo: ['plate'] });
  });

  it('sees a change committed after a higher-numbered one (PostgreSQL sequences), while it is within the overlap', () => {
    const log = new StockChangeLog(0);
    log.take([change('plate-1', 2)], 0, 5000);
    // Number 1 was taken before 2 but committed after it: still read, since the floor stays back by the overlap.
    expect(log.floor).toBe(0);
    expect(products(log.take([change('plate-1', 2), change('mug-1', 1)], 300, 5000))).toEqual({ demo: ['mug'] });
  });

  it('moves its floor up to what was seen an overlap ago, and forgets what lies below', () => {
    const log = new StockChangeLog(0);
    log.take([change('plate-1', 5)], 0, 1000);
    log.take([], 500, 1000);
    expect(log.floor).toBe(0);
    log.take([], 1000, 1000);
    expect(log.floor).toBe(5);
    // Below the floor nothing is asked for again; a new change of the same variant is news.
    expect(products(log.take([change('plate-1', 6)], 1100, 1000))).toEqual({ demo: ['plate'] });
  });
});
