/**
 * What this process last read of each product a new visitor added, per database (PostgreSQL's new-cart add, issue 27).
 *
 * A new visitor's add on PostgreSQL took two statements: the product's read, then the cart and its line written
 * together. With the product known here it takes one: the write carries what the add was checked against (the
 * product's record, the chosen variant's price, sale, stock and attributes) and stores the cart and line only if the
 * database still holds exactly that (./cart.ts, insertCartWithKnownEntry). Nothing here is trusted: a product changed
 * since (a sale, an import, an edit) writes nothing, and the add is made again the two-statement way, whose read
 * replaces what is known. An add that the known product would refuse is decided that way too, on the rows as they are.
 *
 * Measured on PostgreSQL (a round trip is a write to the database's socket and a wake-up of its backend: about 50 µs
 * of this process's CPU each, plus the backend's work), docs/performance.md.
 */
import { LruCache } from '../../render/lru';

/** Products known per database; a shop adds from far fewer than this many products in a while. */
const KNOWN_PRODUCTS_LIMIT = 1000;

const byDatabase = new WeakMap<object, LruCache<string, unknown>>();

/** The key: the site, its currency (the product's prices are read in it) and the product. */
const keyOf = (siteId: string, currency: string, productId: string) => `${siteId}\u0000${currency}\u0000${productId}`;

export function knownProduct<T>(db: object, siteId: string, currency: string, productId: string): T | undefined {
  return byDatabase.get(db)?.get(keyOf(siteId, currency, productId)) as T | undefined;
}

export function rememberProduct<T>(db: object, siteId: string, currency: string, productId: string, read: T) {
  let known = byDatabase.get(db);
  if (!known) byDatabase.set(db, (known = new LruCache(KNOWN_PRODUCTS_LIMIT)));
  known.set(keyOf(siteId, currency, productId), read);
}
