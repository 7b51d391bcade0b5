import { describe, expect, it } from 'vitest';
import { defineCommand, UsageError, type Command, type OptionSpecs } from './command';
import { asksForHelp, listOf, parseCommandLine } from './parse';

const parse = <O extends OptionSpecs>(command: Command<O>, argv: string[]) =>
  parseCommandLine(command, argv, 'vitrine');

const list = defineCommand({
  name: 'things',
  options: {
    site: { type: 'string', short: 's', value: 'ID', description: 'the site' },
    status: { type: 'string', choices: ['open', 'closed', 'gone'], description: 'the status' },
    limit: { type: 'integer', min: 1, max: 100, default: 50, description: 'at most' },
    all: { type: 'boolean', description: 'every one' },
  },
  run: async () => 0,
});
const show = defineCommand({
  name: 'things show',
  positionals: [{ name: 'N', what: 'thing number', integer: true, dashValue: /^-\d/ }],
  options: {
    site: { type: 'string', value: 'ID', description: 'the site' },
    colour: {
      type: 'string',
      format: { test: (value: string) => /^#[0-9a-f]{6}$/.test(value), forms: 'a colour as #rrggbb' },
      description: 'the colour',
    },
  },
  run: async () => 0,
});
const bare = defineCommand({ name: 'tidy', run: async () => 0 });

const usageError = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('no usage error');
};

describe('parseCommandLine', () => {
  it('gives typed values, defaults and positionals in any order', () => {
    expect(parse(list, [])).toEqual({
      options: { site: undefined, status: undefined, limit: 50, all: false },
      positionals: [],
    });
    expect(parse(list, ['-s', 'shop', '--status=open', '--limit', '7', '--all'])).toEqual({
      options: { site: 'shop', status: 'open', limit: 7, all: true },
      positionals: [],
    });
    expect(parse(show, ['--site', 'shop', '12'])).toEqual({
      options: { site: 'shop', colour: undefined },
      positionals: ['12'],
    });
    expect(parse(show, ['12', '--site=shop', '--colour', '#00aa11'])).toEqual({
      options: { site: 'shop', colour: '#00aa11' },
      positionals: ['12'],
    });
    // A value may start with a single '-' (a negative number is then refused by its own check, not taken for an option).
    expect(parse(list, ['--site', '-x']).options.site).toBe('-x');
    expect(parse(list, ['--site=--x']).options.site).toBe('--x');
  });

  it('says what is wrong with a command line', () => {
    const cases: [typeof list | typeof show | typeof bare, string[], string][] = [
      [list, ['--force'], "unknown option '--force' for 'things'"],
      [list, ['-x'], "unknown option '-x' for 'things'"],
      [list, ['--site'], "option '--site' needs a value"],
      [list, ['--site='], "option '--site' needs a value"],
      [list, ['--site', '--all'], "option '--site' needs a value"],
      [list, ['--site', 'a', '-s', 'b'], "option '--site' is given twice"],
      [list, ['--all=yes'], "option '--all' takes no value"],
      [list, ['--status', 'lost'], "option '--status' must be open, closed or gone, not 'lost'"],
      [list, ['--limit', 'ten'], "option '--limit' must be a whole number from 1 to 100, not 'ten'"],
      [list, ['--limit', '0'], "option '--limit' must be a whole number from 1 to 100, not '0'"],
      [list, ['--limit=101'], "option '--limit' must be a whole number from 1 to 100, not '101'"],
      [list, ['--limit', '1.5'], "option '--limit' must be a whole number from 1 to 100, not '1.5'"],
      [list, ['extra'], "unexpected argument 'extra' for 'things'"],
      [show, [], "'things show' needs the thing number: vitrine things show N"],
      [show, ['1', '2'], "'things show' takes one thing number, got 2"],
      [show, ['abc'], "the thing number must be a positive whole number, not 'abc'"],
      [show, ['-3'], "the thing number must be a positive whole number, not '-3'"],
      [show, ['0'], "the thing number must be a positive whole number, not '0'"],
      [show, ['12', '--colour', 'red'], "option '--colour' must be a colour as #rrggbb, not 'red'"],
      // An option's value is checked before a missing argument: the argument was perhaps taken for the value.
      [show, ['--colour', '12'], "option '--colour' must be a colour as #rrggbb, not '12'"],
      [show, ['1', '--limit', '3'], "unknown option '--limit' for 'things show'"],
      [bare, ['now'], "'tidy' takes no arguments, got 'now'"],
      [bare, ['--force', 'x'], "'tidy' takes no arguments, got '--force x'"],
      [
        list,
        ['--site', 'a\u001b[2Jb', '--status', 'x\u0007'],
        "option '--status' must be open, closed or gone, not 'x?'",
      ],
    ];
    for (const [command, args, message] of cases)
      expect(
        usageError(() => parse(command, args)),
        args.join(' '),
      ).toBe(message);
  });

  it('takes everything after -- as positional', () => {
    expect(parse(show, ['--', '7']).positionals).toEqual(['7']);
    expect(usageError(() => parse(show, ['--', '--site']))).toBe(
      "the thing number must be a positive whole number, not '--site'",
    );
  });

  it('sees a request for help before the arguments are checked', () => {
    expect(asksForHelp(['--bogus', '--help'])).toBe(true);
    expect(asksForHelp(['-h'])).toBe(true);
    expect(asksForHelp(['--', '--help'])).toBe(false);
    expect(asksForHelp(['--site', 'x'])).toBe(false);
  });

  it('lists choices', () => {
    expect(listOf(['a'])).toBe('a');
    expect(listOf(['a', 'b'])).toBe('a or b');
    expect(listOf(['a', 'b', 'c'])).toBe('a, b or c');
  });
});
