/**
 * Migrations are listed in code (no file-system scan), so they work the same under tsx, vitest and a bundle.
 * Add a migration: write `NNN_name.ts` exporting a function of the engine, then add it to `migrations()` below.
 * Never edit a migration that has shipped.
 */
import { Migrator, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import { engineOf, type Engine } from '../connect';
import type { Database } from '../tables';
import { initial } from './001_initial';
import { checkout } from './002_checkout';
import { cartClaims } from './003_cart_claims';
import { giftCards } from './004_gift_cards';
import { subscriptions } from './005_subscriptions';
import { forms } from './006_forms';
import { analytics } from './007_analytics';
import { siteUsers } from './008_site_users';
import { orderLookups } from './011_order_lookups';
import { restock } from './009_restock';
import { search } from './010_search';
import { pageLockSecrets } from './012_page_lock_secrets';
import { postLikes } from './013_post_likes';
import { outboxRenderData } from './014_outbox_render_data';
import { dropCartsBySite } from './015_drop_carts_by_site';
import { stockChanges } from './016_stock_changes';
import { auditLog } from './017_audit_log';
import { fulfilment } from './018_fulfilment';
import { refunds } from './019_refunds';
import { stockMovements } from './020_stock_movements';
import { ordersByEmail } from './021_orders_by_email';
import { adminIndexes } from './022_admin_indexes';
import { staff } from './023_staff';
import { adminHome } from './024_admin_home';
import { gatheredIndexes } from './025_gathered_indexes';
import { inventoryPages } from './026_inventory_pages';
import { adminSearches } from './027_admin_searches';
import { siteVersions } from './028_site_versions';
import { deferredTrigrams } from './029_deferred_trigrams';
import { fewerWriteIndexes } from './030_fewer_write_indexes';
import { publication } from './031_publication';
import { ordersCountedLater } from './032_orders_counted_later';

export function migrations(engine: Engine): Record<string, Migration> {
  return {
    '001_initial': initial(engine),
    '002_checkout': checkout(engine),
    '003_cart_claims': cartClaims(engine),
    '004_gift_cards': giftCards(engine),
    '005_subscriptions': subscriptions(engine),
    '006_forms': forms(engine),
    '007_analytics': analytics(engine),
    '008_site_users': siteUsers(engine),
    '009_restock': restock(engine),
    '010_search': search(engine),
    '011_order_lookups': orderLookups(engine),
    '012_page_lock_secrets': pageLockSecrets(engine),
    '013_post_likes': postLikes(engine),
    '014_outbox_render_data': outboxRenderData(engine),
    '015_drop_carts_by_site': dropCartsBySite(engine),
    '016_stock_changes': stockChanges(engine),
    '017_audit_log': auditLog(engine),
    '018_fulfilment': fulfilment(engine),
    '019_refunds': refunds(engine),
    '020_stock_movements': stockMovements(engine),
    '021_orders_by_email': ordersByEmail(engine),
    '022_admin_indexes': adminIndexes(engine),
    '023_staff': staff(engine),
    '024_admin_home': adminHome(engine),
    '025_gathered_indexes': gatheredIndexes(engine),
    '026_inventory_pages': inventoryPages(engine),
    '027_admin_searches': adminSearches(engine),
    '028_site_versions': siteVersions(engine),
    '029_deferred_trigrams': deferredTrigrams(engine),
    '030_fewer_write_indexes': fewerWriteIndexes(engine),
    '031_publication': publication(engine),
    '032_orders_counted_later': ordersCountedLater(engine),
  };
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** The applied migration names, in order (e.g. to print progress). */
export interface MigrateOutcome {
  applied: string[];
}

/**
 * Work a module does once a migration has been applied, by the migration's name: derived data built from stored rows
 * with today's code (a migration itself never runs module code: it is written against the schema of its day).
 */
export type MigrationFollowUps = Readonly<Record<string, (db: Kysely<Database>) => Promise<void>>>;

/**
 * Brings the schema to the latest migration, then runs the follow-ups of the migrations just applied; throws a
 * MigrationError naming the migration (or follow-up) that failed.
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  followUps: MigrationFollowUps = {},
): Promise<MigrateOutcome> {
  const engine = engineOf(db);
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(engine) } });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  const applied = (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  if (result.error !== undefined) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName;
    const reason = result.error instanceof Error ? result.error.message : String(result.error);
    throw new MigrationError(
      failed
        ? `migration ${failed} failed on ${engine}: ${reason}`
        : `could not migrate the ${engine} database: ${reason}`,
      { cause: result.error },
    );
  }
  for (const name of applied) {
    const followUp = followUps[name];
    if (followUp === undefined) continue;
    try {
      await followUp(db);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new MigrationError(`the follow-up of migration ${name} failed on ${engine}: ${reason}`, { cause: error });
    }
  }
  return { applied };
}
