/**
 * `vitrine stock set SKU N [--site ID] [--reason TEXT]`, `vitrine stock adjust SKU +N|-N [--site ID] [--reason TEXT]`:
 * the owner's stock changes from a terminal — the same change as /admin/inventory (applied in the database, its
 * history row and its audit entry, by 'vitrine command', in one transaction).
 * `vitrine stock history SKU [--site ID]`: the variant's stock history, newest first.
 */
import { loadSettings } from '../../config';
import { withDatabase } from '../../platform/cli/database';
import { siteFor } from '../site';
import { defineCommand, UsageError, UserError, type Command } from '../../platform/cli/command';
import { formatTable, printable } from '../../platform/cli/table';
import { COMMAND_ACTOR } from '../admin';
import { changeStock, stockHistory } from './inventoryAdmin';

const options = {
  site: { type: 'string', value: 'ID', description: 'the site (default: the default one)' },
  reason: { type: 'string', value: 'TEXT', description: "why (shown in the variant's history and the audit log)" },
} as const;

const sku = { name: 'SKU', what: 'SKU' } as const;

function change(mode: 'set' | 'adjust') {
  return defineCommand({
    name: `stock ${mode}`,
    options,
    positionals: [sku, { name: mode === 'set' ? 'N' : '+N|-N', what: 'number of units', dashValue: /^-\d+$/ }],
    async run({ options: o, positionals }, io) {
      const [code, units] = positionals as [string, string];
      const pattern = mode === 'set' ? /^\d{1,9}$/ : /^[+-]\d{1,9}$/;
      if (!pattern.test(units))
        throw new UsageError(
          mode === 'set'
            ? `'stock set' takes a whole number of units, 0 or more, got '${printable(units)}'`
            : `'stock adjust' takes a signed whole number of units (+3 or -2), got '${printable(units)}'`,
        );
      const n = Number(units);
      return withDatabase(loadSettings(), io, async (handle) => {
        const site = await siteFor(handle, o.site);
        const done = await changeStock(handle.db, site.id, code, mode === 'set' ? { set: n } : { adjust: n }, {
          actor: COMMAND_ACTOR,
          reason: o.reason,
        });
        if (!done.ok) throw new UserError(done.error.message);
        const e = done.value;
        io.out(
          `The stock of ${printable(code)} is now ${e.after} (was ${e.before === null ? 'unlimited' : e.before}).`,
        );
        return 0;
      });
    },
  });
}

const historyCommand = defineCommand({
  name: 'stock history',
  options: { site: options.site },
  positionals: [sku],
  async run({ options: o, positionals }, io) {
    const code = positionals[0]!;
    return withDatabase(loadSettings(), io, async (handle) => {
      const site = await siteFor(handle, o.site);
      const movements = await stockHistory(handle.db, site.id, code);
      if (movements.length === 0) {
        io.out(`No stock changes recorded for ${printable(code)}.`);
        return 0;
      }
      const table = formatTable(
        [
          { header: 'WHEN (UTC)' },
          { header: 'WHAT' },
          { header: 'CHANGE', align: 'right' },
          { header: 'AFTER', align: 'right' },
          { header: 'WHO', maxWidth: 40 },
          { header: 'NOTE', maxWidth: 40 },
        ],
        movements.map((m) => [
          m.at.slice(0, 19).replace('T', ' '),
          m.reason,
          m.delta > 0 ? `+${m.delta}` : String(m.delta),
          String(m.qtyAfter),
          m.actor ?? '',
          m.note ?? '',
        ]),
      );
      for (const line of table) io.out(line);
      return 0;
    });
  },
});

export const commands: readonly Command[] = [change('set'), change('adjust'), historyCommand];
