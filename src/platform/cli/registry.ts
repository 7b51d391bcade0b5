/**
 * The list of `vitrine` commands and the dispatch. An entry is light: its name, usage line and one-line summary (what
 * `vitrine --help` prints) and `load()`, which imports the code that declares and runs it (command.ts) only when the
 * command is run or its own help is asked for — `vitrine --help` and `vitrine serve` load no other command's code.
 *
 * `runCommandLine(registry, argv, io)` returns the exit code: 0 done, 1 failed (a UserError's message, or an
 * unexpected error in one line), 2 wrong usage (the message and a hint). Never a stack trace unless VITRINE_DEBUG is set.
 */
import { UsageError, UserError, type CliIo, type Command, type OptionSpec } from './command';
import { asksForHelp, listOf, parseCommandLine } from './parse';
import { printable } from './table';

export interface CommandEntry {
  /** 'orders refund': the words that run it. */
  name: string;
  /** Other words that run it: 'restock' for 'restock list'. */
  aliases?: readonly string[];
  /** The usage line, without 'vitrine ': 'orders refund N [--site ID]'. */
  usage: string;
  /** One sentence for the list of commands. */
  summary: string;
  /** How a list of a group's commands names it, when not the usage up to its options ('orders refund N'). */
  hint?: string;
  /** The commands of the entry's code: one of them is named `name`. */
  load(): Promise<readonly Command[]>;
}

export interface Registry {
  /** The program's name in messages and help: 'vitrine'. */
  program: string;
  entries: readonly CommandEntry[];
  /** Lines printed after the list of commands (settings, where the docs are). */
  footer?: readonly string[];
  /** Errors besides UserError whose message is complete for the user (exit code 1, no stack). */
  isUserError?: (error: unknown) => boolean;
}

const COLUMN = 28;
const WIDTH = 120;

const words = (name: string) => name.split(' ');

/** Every name an entry answers to. */
const namesOf = (entry: CommandEntry) => [entry.name, ...(entry.aliases ?? [])];

/** How a list of commands names the entry: 'orders show N'. */
function hintOf(entry: CommandEntry): string {
  if (entry.hint !== undefined) return entry.hint;
  const own = new Set(words(entry.name));
  const rest = entry.usage
    .split(' ')
    .filter((word) => !own.has(word) && !own.has(word.replace(/^\[(.*)\]$/, '$1')) && word !== '');
  const end = rest.findIndex((word) => !/^[A-Z][A-Z0-9_]*$/.test(word));
  return [entry.name, ...(end === -1 ? rest : rest.slice(0, end))].join(' ');
}

/** Optimal string alignment distance (a swap of two neighbours counts one). */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** The one candidate close to `word` (a typo, or the start of a single one), else undefined. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const typed = word.toLowerCase();
  const unique = [...new Set(candidates)];
  const starting = typed.length >= 3 ? unique.filter((c) => c.startsWith(typed)) : [];
  if (starting.length === 1) return starting[0];
  const allowed = typed.length <= 4 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = Infinity;
  let tie = false;
  for (const candidate of unique) {
    const distance = editDistance(typed, candidate);
    if (distance < bestDistance) [best, bestDistance, tie] = [candidate, distance, false];
    else if (distance === bestDistance) tie = true;
  }
  return best !== undefined && bestDistance <= allowed && !tie ? best : undefined;
}

/** `text` cut into lines of at most `width` characters at spaces. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** '  usage                       summary', the summary wrapped at the column; a long usage on a line of its own. */
function listed(left: string, summary: string): string[] {
  const text = wrap(summary, WIDTH - COLUMN - 2);
  const pad = ' '.repeat(COLUMN + 2);
  const first =
    left.length <= COLUMN
      ? [`  ${left.padEnd(COLUMN)}${text[0] ?? ''}`.trimEnd()]
      : [`  ${left}`, `${pad}${text[0] ?? ''}`];
  return [...first, ...text.slice(1).map((line) => pad + line)];
}

/** `vitrine --help`: every command with its usage and summary. */
export function programHelp(registry: Registry): string[] {
  const { program } = registry;
  return [
    `Usage: ${program} <command> [options]`,
    '',
    'Commands:',
    ...registry.entries.flatMap((entry) => listed(entry.usage, entry.summary)),
    ...listed('help [COMMAND]', `Show this help, or a command's options (also: ${program} COMMAND --help)`),
    ...(registry.footer ? ['', ...registry.footer] : []),
  ];
}

const optionLeft = (long: string, spec: OptionSpec) => {
  const flag = `${spec.short ? `-${spec.short}, ` : '    '}--${long}`;
  if (spec.type === 'boolean') return flag;
  return `${flag} ${spec.value ?? (spec.type === 'integer' ? 'N' : spec.choices ? spec.choices.join('|') : 'VALUE')}`;
};

const optionText = (spec: OptionSpec) => {
  if (spec.type === 'boolean' || spec.default === undefined) return spec.description;
  return `${spec.description} (default ${spec.default})`;
};

/** `vitrine <command> --help`: its usage, summary, arguments, options, and the other commands of its group. */
export function commandHelp(registry: Registry, entry: CommandEntry, command: Command): string[] {
  const { program } = registry;
  const lines = [`Usage: ${program} ${entry.usage}`, '', ...wrap(entry.summary, WIDTH)];
  const positionals = command.positionals ?? [];
  if (positionals.length > 0) {
    lines.push('', 'Arguments:');
    for (const p of positionals) lines.push(...listed(p.name, `the ${p.what}${p.optional ? ' (optional)' : ''}`));
  }
  lines.push('', 'Options:');
  for (const [long, spec] of Object.entries(command.options ?? {}))
    lines.push(...listed(optionLeft(long, spec), optionText(spec)));
  lines.push(...listed('-h, --help', 'show this help'));
  if (command.details?.length)
    lines.push('', ...command.details.flatMap((line) => (line === '' ? [''] : wrap(line, WIDTH))));
  const group = words(entry.name)[0] as string;
  const others = registry.entries.filter((e) => e !== entry && words(e.name)[0] === group);
  if (others.length > 0) {
    lines.push('', `Other '${group}' commands:`);
    for (const other of others) lines.push(...listed(other.usage, other.summary));
  }
  return lines;
}

/** `vitrine <group> --help` for a group without a command of its own name ('carts'). */
function groupHelp(registry: Registry, group: string, entries: readonly CommandEntry[]): string[] {
  return [
    `Usage: ${registry.program} ${group} <command> [options]`,
    '',
    'Commands:',
    ...entries.flatMap((entry) => listed(entry.usage, entry.summary)),
  ];
}

interface Found {
  entry: CommandEntry;
  /** The arguments after the command's words. */
  rest: string[];
}

/** The command `argv` names, or the usage error that says why none. */
function find(registry: Registry, argv: readonly string[]): Found | { group: string; entries: CommandEntry[] } {
  const { program, entries } = registry;
  let best: { entry: CommandEntry; length: number } | undefined;
  for (const entry of entries) {
    for (const name of namesOf(entry)) {
      const w = words(name);
      if (w.every((word, i) => argv[i] === word) && (!best || w.length > best.length))
        best = { entry, length: w.length };
    }
  }
  const first = argv[0] as string;
  const group = entries.filter((e) => namesOf(e).some((n) => words(n)[0] === first));
  const sub = argv[1];
  // A group's word followed by a word that is none of its commands: 'orders cancel 1', 'carts purge'.
  const otherWord = sub !== undefined && !sub.startsWith('-');
  if (best && (best.length > 1 || !otherWord || group.length === 1))
    return { entry: best.entry, rest: argv.slice(best.length) };
  if (group.length === 0) {
    const guess = nearest(first, [...entries.flatMap((e) => namesOf(e).map((n) => words(n)[0] as string)), 'help']);
    throw new UsageError(
      `unknown command ${`'${printable(first)}'`}${guess ? `; did you mean '${program} ${guess}'?` : ''}`,
    );
  }
  if (!otherWord) {
    if (sub !== undefined && asksForHelp([sub])) return { group: first, entries: group };
    throw new UsageError(`'${first}' needs a command: ${listOf(group.map((e) => `${program} ${hintOf(e)}`))}`);
  }
  const subWords = group.flatMap((e) =>
    namesOf(e).flatMap((n) => (words(n).length > 1 ? [words(n)[1] as string] : [])),
  );
  const guess = nearest(sub, subWords);
  const guessed = guess && group.find((e) => namesOf(e).includes(`${first} ${guess}`));
  throw new UsageError(
    guessed
      ? `unknown ${first} command '${printable(sub)}'; did you mean '${program} ${hintOf(guessed)}'?`
      : `unknown ${first} command '${printable(sub)}' (use ${listOf(group.map((e) => `'${program} ${hintOf(e)}'`))})`,
  );
}

async function commandOf(entry: CommandEntry): Promise<Command> {
  const command = (await entry.load()).find((c) => c.name === entry.name);
  if (!command) throw new Error(`the code of '${entry.name}' declares no command of that name`);
  return command;
}

/** The entry and its loaded command, for help and for tests that check the registry's entries. */
export async function loadCommand(
  registry: Registry,
  name: string,
): Promise<{ entry: CommandEntry; command: Command }> {
  const entry = registry.entries.find((e) => e.name === name);
  if (!entry) throw new Error(`no command '${name}'`);
  return { entry, command: await commandOf(entry) };
}

async function dispatch(registry: Registry, argv: readonly string[], io: CliIo): Promise<number> {
  const [first] = argv;
  if (first === undefined) {
    for (const line of programHelp(registry)) io.err(line);
    return 2;
  }
  if (first === 'help' || asksForHelp([first])) {
    if (argv.length === 1) {
      for (const line of programHelp(registry)) io.out(line);
      return 0;
    }
    return dispatch(registry, [...argv.slice(1).filter((arg) => !asksForHelp([arg])), '--help'], io);
  }
  const found = find(registry, argv);
  if (!('entry' in found)) {
    for (const line of groupHelp(registry, found.group, found.entries)) io.out(line);
    return 0;
  }
  const command = await commandOf(found.entry);
  if (asksForHelp(found.rest)) {
    for (const line of commandHelp(registry, found.entry, command)) io.out(line);
    return 0;
  }
  return command.run(parseCommandLine(command, found.rest, registry.program), io);
}

/** Runs the command `argv` names; returns the exit code. */
export async function runCommandLine(registry: Registry, argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(registry, argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      const message = printable(error.message);
      io.err(
        `${registry.program}: ${message}${message.endsWith('?') ? '' : '.'} Run '${registry.program} help' for usage.`,
      );
      return 2;
    }
    if (error instanceof UserError || registry.isUserError?.(error)) {
      io.err(`${registry.program}: ${(error as Error).message}`);
      return 1;
    }
    io.err(`${registry.program}: unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    if (process.env.VITRINE_DEBUG && error instanceof Error && error.stack) io.err(error.stack);
    else io.err('(set VITRINE_DEBUG=1 to see the details)');
    return 1;
  }
}
