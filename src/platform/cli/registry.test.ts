import { describe, expect, it, vi } from 'vitest';
import { defineCommand, UserError, type Command } from './command';
import { editDistance, nearest, programHelp, runCommandLine, type Registry } from './registry';

const ran: string[] = [];
const commands: Command[] = [
  defineCommand({
    name: 'orders',
    options: { limit: { type: 'integer', min: 1, max: 10, default: 5, description: 'at most this many' } },
    run: async ({ options }, io) => (io.out(`list ${options.limit}`), 0),
  }),
  defineCommand({
    name: 'orders refund',
    positionals: [{ name: 'N', what: 'order number', integer: true }],
    details: ['Refunds once.'],
    run: async ({ positionals }, io) => (io.out(`refund ${positionals[0]}`), 0),
  }),
  defineCommand({ name: 'carts expire', run: async (_args, io) => (io.out('expired'), 0) }),
  defineCommand({
    name: 'fail',
    run: async () => {
      throw new UserError('the shop is closed');
    },
  }),
  defineCommand({
    name: 'crash',
    run: async () => {
      throw new Error('boom');
    },
  }),
];
const load = vi.fn(async () => {
  ran.push('load');
  return commands;
});
const registry: Registry = {
  program: 'shop',
  entries: [
    { name: 'orders', usage: 'orders [--limit N]', summary: 'List the orders', load },
    { name: 'orders refund', usage: 'orders refund N', summary: 'Refund order N', load },
    { name: 'carts expire', usage: 'carts expire', summary: 'Remove expired carts', load },
    { name: 'fail', usage: 'fail', summary: 'Fails', load },
    { name: 'crash', usage: 'crash', summary: 'Crashes', load },
  ],
  footer: ['Settings: none.'],
};

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCommandLine(registry, argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

describe('runCommandLine', () => {
  it('runs the command the words name, with its arguments parsed', async () => {
    expect(await run('orders')).toEqual({ code: 0, out: ['list 5'], err: [] });
    expect(await run('orders', '--limit', '3')).toEqual({ code: 0, out: ['list 3'], err: [] });
    expect(await run('orders', 'refund', '12')).toEqual({ code: 0, out: ['refund 12'], err: [] });
    expect(await run('carts', 'expire')).toEqual({ code: 0, out: ['expired'], err: [] });
  });

  it('prints the help of the program, without loading any command', async () => {
    load.mockClear();
    const help = await run('--help');
    expect(help.code).toBe(0);
    expect(help.out[0]).toBe('Usage: shop <command> [options]');
    expect(help.out).toContain('  orders [--limit N]          List the orders');
    expect(help.out.at(-1)).toBe('Settings: none.');
    expect((await run('help')).out).toEqual(help.out);
    expect((await run('-h')).out).toEqual(help.out);
    expect(load).not.toHaveBeenCalled();
    const bare = await run();
    expect(bare).toEqual({ code: 2, out: [], err: programHelp(registry) });
  });

  it("prints a command's help: usage, summary, arguments, options, details, its group's other commands", async () => {
    const help = await run('orders', 'refund', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toEqual([
      'Usage: shop orders refund N',
      '',
      'Refund order N',
      '',
      'Arguments:',
      '  N                           the order number',
      '',
      'Options:',
      '  -h, --help                  show this help',
      '',
      'Refunds once.',
      '',
      "Other 'orders' commands:",
      '  orders [--limit N]          List the orders',
    ]);
    expect((await run('help', 'orders', 'refund')).out).toEqual(help.out);
    // Asked for help, a wrong command line is not an error.
    expect((await run('orders', '--bogus', '-h')).out[0]).toBe('Usage: shop orders [--limit N]');
    expect((await run('orders', '--help')).out).toContain(
      '      --limit N               at most this many (default 5)',
    );
    expect((await run('carts', '--help')).out).toEqual([
      'Usage: shop carts <command> [options]',
      '',
      'Commands:',
      '  carts expire                Remove expired carts',
    ]);
  });

  it('refuses a wrong command line with exit code 2 and a hint, suggesting the command meant', async () => {
    const cases: [string[], string][] = [
      [['bogus'], "shop: unknown command 'bogus'. Run 'shop help' for usage."],
      [['ordres'], "shop: unknown command 'ordres'; did you mean 'shop orders'? Run 'shop help' for usage."],
      [['help', 'ordres'], "shop: unknown command 'ordres'; did you mean 'shop orders'? Run 'shop help' for usage."],
      [['cart'], "shop: unknown command 'cart'; did you mean 'shop carts'? Run 'shop help' for usage."],
      [
        ['orders', 'cancel'],
        "shop: unknown orders command 'cancel' (use 'shop orders' or 'shop orders refund N'). Run 'shop help' for usage.",
      ],
      [
        ['orders', 'refnud', '1'],
        "shop: unknown orders command 'refnud'; did you mean 'shop orders refund N'? Run 'shop help' for usage.",
      ],
      [['carts'], "shop: 'carts' needs a command: shop carts expire. Run 'shop help' for usage."],
      [['carts', 'purge'], "shop: unknown carts command 'purge' (use 'shop carts expire'). Run 'shop help' for usage."],
      [
        ['orders', '--limit', 'many'],
        "shop: option '--limit' must be a whole number from 1 to 10, not 'many'. Run 'shop help' for usage.",
      ],
      [
        ['orders', 'refund'],
        "shop: 'orders refund' needs the order number: shop orders refund N. Run 'shop help' for usage.",
      ],
      [['carts', 'expire', 'now'], "shop: 'carts expire' takes no arguments, got 'now'. Run 'shop help' for usage."],
    ];
    for (const [argv, message] of cases)
      expect(await run(...argv), argv.join(' ')).toEqual({ code: 2, out: [], err: [message] });
  });

  it('prints a failure in one line with exit code 1, never a stack trace', async () => {
    expect(await run('fail')).toEqual({ code: 1, out: [], err: ['shop: the shop is closed'] });
    const previous = process.env.VITRINE_DEBUG;
    delete process.env.VITRINE_DEBUG;
    try {
      expect(await run('crash')).toEqual({
        code: 1,
        out: [],
        err: ['shop: unexpected error: boom', '(set VITRINE_DEBUG=1 to see the details)'],
      });
    } finally {
      if (previous !== undefined) process.env.VITRINE_DEBUG = previous;
    }
  });

  it('fails plainly when an entry loads code without its command', async () => {
    const broken: Registry = { program: 'shop', entries: [{ name: 'gone', usage: 'gone', summary: '', load }] };
    const err: string[] = [];
    expect(await runCommandLine(broken, ['gone'], { out: () => {}, err: (l) => err.push(l) })).toBe(1);
    expect(err[0]).toBe("shop: unexpected error: the code of 'gone' declares no command of that name");
  });
});

describe('nearest', () => {
  it('suggests one close candidate or a unique start, never a guess among several', () => {
    const names = ['orders', 'outbox', 'subscriptions', 'subscribers', 'serve', 'users', 'report'];
    expect(nearest('ordres', names)).toBe('orders');
    expect(nearest('outbx', names)).toBe('outbox');
    expect(nearest('serv', names)).toBe('serve');
    expect(nearest('subscri', names)).toBeUndefined();
    expect(nearest('subscriber', names)).toBe('subscribers');
    expect(nearest('bogus', names)).toBeUndefined();
    expect(nearest('x', names)).toBeUndefined();
    expect(editDistance('ab', 'ba')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});
