/**
 * A command's arguments checked against its declaration (command.ts) with node:util's parseArgs (strict, positionals
 * allowed). Every wrong command line is a UsageError whose message names the command and the argument: an unknown
 * option, an option without its value or given twice, a value that is not one of the choices or not a whole number in
 * range, too many or too few positional arguments. Nothing reaches `run` unchecked.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError, type Command, type OptionSpec, type OptionSpecs, type ParsedArgs } from './command';
import { printable } from './table';

type ParseArgsOptions = NonNullable<ParseArgsConfig['options']>;

/** `--help` and `-h`: every command takes them. */
export const HELP_FLAGS: readonly string[] = ['--help', '-h'];

const quoted = (text: string) => `'${printable(text)}'`;

/** 'a, b or c'. */
export const listOf = (items: readonly string[]): string =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;

/** Whether the command line asks for the command's help (before any `--`). */
export function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => HELP_FLAGS.includes(arg));
}

/**
 * The arguments of `command` (the words after its name), checked; throws UsageError for a wrong command line.
 * `program` is the program's name in the messages ('vitrine').
 */
export function parseCommandLine<O extends OptionSpecs>(
  command: Command<O>,
  argv: readonly string[],
  program: string,
): ParsedArgs<O> {
  const specs: OptionSpecs = command.options ?? {};
  const positionals = command.positionals ?? [];
  const name = command.name;
  if (Object.keys(specs).length === 0 && positionals.length === 0) {
    if (argv.length > 0) throw new UsageError(`'${name}' takes no arguments, got ${quoted(argv.join(' '))}`);
    return { options: {} as ParsedArgs<O>['options'], positionals: [] };
  }

  // Arguments that look like options but are a positional argument ('-3', an id starting with '-') go after '--'.
  const end = argv.indexOf('--');
  const before = end === -1 ? [...argv] : argv.slice(0, end);
  const after = end === -1 ? [] : argv.slice(end + 1);
  const dashValues = positionals.flatMap((p) => (p.dashValue ? [p.dashValue] : []));
  const isDashValue = (arg: string) => arg.startsWith('-') && dashValues.some((pattern) => pattern.test(arg));
  const args = [...before.filter((arg) => !isDashValue(arg)), '--', ...before.filter(isDashValue), ...after];

  const parseOptions: ParseArgsOptions = {};
  for (const [long, spec] of Object.entries(specs)) {
    parseOptions[long] = {
      type: spec.type === 'boolean' ? 'boolean' : 'string',
      ...(spec.short !== undefined ? { short: spec.short } : {}),
    };
  }

  // First the tokens, read leniently, to say exactly what is wrong; then the strict parse of the same arguments,
  // written out plainly (--name=value), for the values.
  const { tokens } = parseArgs({ args, options: parseOptions, strict: false, allowPositionals: true, tokens: true });
  const given = new Set<string>();
  const plain: string[] = [];
  const found: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') {
      found.push(token.value);
      continue;
    }
    if (token.kind === 'option-terminator') continue;
    // parseArgs names a declared short option by its long name ('-s' → 'site'), an unknown one by its letter.
    const long =
      token.rawName.startsWith('--') || specs[token.name]?.short === token.rawName.slice(1) ? token.name : undefined;
    const spec = long === undefined ? undefined : specs[long];
    if (long === undefined || spec === undefined)
      throw new UsageError(`unknown option ${quoted(token.rawName)} for '${name}'`);
    const shown = `--${long}`;
    if (given.has(long)) throw new UsageError(`option '${shown}' is given twice`);
    given.add(long);
    if (spec.type === 'boolean') {
      if (token.inlineValue) throw new UsageError(`option '${shown}' takes no value`);
      plain.push(shown);
      continue;
    }
    const value = token.value;
    // A value that is an option ('--site --limit 5') is a missing value; '-5' is a (perhaps wrong) value.
    if (value === undefined || value === '' || (!token.inlineValue && value.startsWith('--')))
      throw new UsageError(`option '${shown}' needs a value`);
    plain.push(`${shown}=${value}`);
  }

  const parsed = parseArgs({
    args: [...plain, '--', ...found],
    options: parseOptions,
    strict: true,
    allowPositionals: true,
  });
  const options: Record<string, string | number | boolean | undefined> = {};
  for (const [long, spec] of Object.entries(specs)) options[long] = valueOf(`--${long}`, spec, parsed.values[long]);

  const required = positionals.filter((p) => !p.optional);
  if (found.length < required.length) {
    const missing = required[found.length] as (typeof required)[number];
    throw new UsageError(
      `'${name}' needs ${missing.needs ?? `the ${missing.what}`}: ${program} ${name} ${required.map((p) => p.name).join(' ')}`,
    );
  }
  if (found.length > positionals.length) {
    if (positionals.length === 0) throw new UsageError(`unexpected argument ${quoted(found[0] ?? '')} for '${name}'`);
    throw new UsageError(
      positionals.length === 1
        ? `'${name}' takes one ${positionals[0]?.what}, got ${found.length}`
        : `'${name}' takes at most ${positionals.length} arguments, got ${found.length}`,
    );
  }
  positionals.forEach((p, i) => {
    const text = found[i];
    if (text === undefined || !p.integer) return;
    const number = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
    if (!(Number.isSafeInteger(number) && number >= 1))
      throw new UsageError(`the ${p.what} must be a positive whole number, not ${quoted(text)}`);
  });
  return { options: options as ParsedArgs<O>['options'], positionals: found };
}

function valueOf(shown: string, spec: OptionSpec, raw: string | boolean | (string | boolean)[] | undefined) {
  if (spec.type === 'boolean') return raw === true;
  if (typeof raw !== 'string') return spec.default;
  if (spec.type === 'integer') {
    const number = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
    if (!(number >= spec.min && number <= spec.max))
      throw new UsageError(
        `option '${shown}' must be a whole number from ${spec.min} to ${spec.max}, not ${quoted(raw)}`,
      );
    return number;
  }
  if (spec.choices && !spec.choices.includes(raw))
    throw new UsageError(`option '${shown}' must be ${listOf(spec.choices)}, not ${quoted(raw)}`);
  if (spec.format && !spec.format.test(raw))
    throw new UsageError(`option '${shown}' must be ${spec.format.forms}, not ${quoted(raw)}`);
  return raw;
}
