/**
 * The `vitrine` command list (src/cli/run.ts) against the commands the modules declare: every entry loads a command of
 * its name whose options and arguments its usage line names; the help of the program and of a command; a mistyped
 * command suggested; wrong command lines refused with exit code 2 before the database is touched.
 */
import { describe, expect, it, vi } from 'vitest';
import { REGISTRY } from '../../src/cli/run';
import { loadCommand } from '../../src/platform/cli/registry';
import { vitrine, vitrineProcess } from '../support/cli';

const unreachable = 'postgres://nobody@127.0.0.1:1/none';

// The first test loads every command's code (most of the app, through tsx): on a busy machine that alone can take
// longer than vitest's default 30 s.
vi.setConfig({ testTimeout: 120_000 });

describe('vitrine: the command list', () => {
  it('loads, for every entry, a command of its name whose options and arguments the usage line names', async () => {
    for (const { name } of REGISTRY.entries) {
      const { entry, command } = await loadCommand(REGISTRY, name);
      const usage = entry.usage.split(/[\s[\]=]+/);
      for (const option of Object.keys(command.options ?? {})) expect(usage, name).toContain(`--${option}`);
      for (const p of command.positionals ?? []) expect(usage, name).toContain(p.name);
      for (const word of usage.filter((w) => w.startsWith('--')))
        expect(Object.keys(command.options ?? {}), name).toContain(word.slice(2));
      expect(entry.summary, name).not.toBe('');
    }
  });

  it('loads each command alone, as `vitrine` does: no import cycle leaves a constant unset', async () => {
    // In one process every command module is loaded once, whichever came first; a cycle between modules breaks only
    // the command whose module starts it (`vitrine users add` once failed with "Cannot access 'INVITE_MESSAGES'
    // before initialization" while every in-process test passed). A process per loader, two at a time.
    const firsts = new Map<unknown, string>();
    for (const entry of REGISTRY.entries) if (!firsts.has(entry.load)) firsts.set(entry.load, entry.name);
    const names = [...firsts.values()];
    const failures: string[] = [];
    const next = async (): Promise<void> => {
      const name = names.shift();
      if (name === undefined) return;
      const run = await vitrineProcess([...name.split(' '), '--help'], {});
      if (run.code !== 0 || run.stderr !== '') failures.push(`${name}: exit ${run.code} ${run.stderr}`);
      return next();
    };
    expect(names.length).toBeGreaterThan(8);
    await Promise.all([next(), next()]);
    expect(failures).toEqual([]);
  });

  it("prints a command's help: its usage, options and the other commands of its group", async () => {
    const help = await vitrine(['orders', 'refund', '--help'], unreachable);
    expect(help.code).toBe(0);
    expect(help.err).toEqual([]);
    expect(help.out[0]).toBe(
      'Usage: vitrine orders refund N [--site ID] [--amount AMOUNT | --line POS:QTY,…] [--reason TEXT] [--restock] [--yes]',
    );
    expect(help.out).toContain('  N                           the order number');
    expect(help.out.some((l) => /^ {6}--site ID {15}the site of order number N/.test(l))).toBe(true);
    expect(help.out).toContain("Other 'orders' commands:");
    expect((await vitrine(['help', 'orders', 'refund'], unreachable)).out).toEqual(help.out);
    const list = await vitrine(['subscriptions', '--help'], unreachable);
    expect(list.out.some((l) => l.includes('--limit N') && l.includes('(default 50)'))).toBe(true);
    expect((await vitrine(['carts', '--help'], unreachable)).out[0]).toBe('Usage: vitrine carts <command> [options]');
    const program = await vitrine(['--help'], unreachable);
    expect(program.out).toContain(
      "  help [COMMAND]              Show this help, or a command's options (also: vitrine COMMAND --help)",
    );
  });

  it('refuses wrong usage with exit code 2, suggesting the command meant, before touching the database', async () => {
    const cases: [string[], string][] = [
      [['ordres'], "unknown command 'ordres'; did you mean 'vitrine orders'?"],
      [['orders', 'refnud', '3'], "unknown orders command 'refnud'; did you mean 'vitrine orders refund N'?"],
      [['report', 'tokn'], "unknown report command 'tokn'; did you mean 'vitrine report token'?"],
      [['help', 'subscribtions'], "unknown command 'subscribtions'; did you mean 'vitrine subscriptions'?"],
      // Before: "unknown option '--all'".
      [['restock', 'send', '--product', 'mug', '--variant', 'A', '--all=yes'], "option '--all' takes no value."],
      // Before: the value was taken as '--limit' … now said to be missing.
      [['orders', '--site=', '--limit', '3'], "option '--site' needs a value."],
      [['report', '--days', '3.5'], "option '--days' must be a whole number from 1 to 3650, not '3.5'."],
      [['giftcards', '--limit', '-1'], "option '--limit' must be a whole number from 1 to 10000, not '-1'."],
      [['users', 'add', '--email'], "option '--email' needs a value."],
      [['serve', '--port', '3000'], "unknown option '--port' for 'serve'."],
      [['serve', '--workers', '0'], "option '--workers' must be a whole number from 1 to 64, not '0'."],
    ];
    for (const [args, message] of cases) {
      const run = await vitrine(args, unreachable);
      expect(run.err, args.join(' ')).toEqual([`vitrine: ${message} Run 'vitrine help' for usage.`]);
      expect(run.code).toBe(2);
      expect(run.out).toEqual([]);
    }
  });

  it('takes an id that starts with - as the id, not an option', async () => {
    const run = await vitrine(['subscriptions', 'show', '-abcdefghijklmnopqrstu'], unreachable);
    expect(run.code).toBe(1);
    expect(run.err[0]).toMatch(/^vitrine: cannot use the database /);
  });
});
