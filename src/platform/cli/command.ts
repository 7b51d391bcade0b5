/**
 * What a `vitrine` command is: its name (one word, or a group's word and its own: `orders refund`), the options it
 * takes (declared for node:util's parseArgs, plus whole numbers and fixed choices checked here), its positional
 * arguments, and `run`. The parser (parse.ts) checks the command line against the declaration before `run` is called,
 * so `run` gets typed values and never a wrong command line; the registry (registry.ts) finds the command, prints the
 * help and turns errors into exit codes.
 */

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** A wrong command line: printed with a hint, exit code 2. */
export class UsageError extends Error {}
/** A failure whose message is complete for the user: printed as is, exit code 1. */
export class UserError extends Error {}

interface OptionBase {
  /** One letter: `-s` for `--site`. */
  short?: string;
  /** One line for `vitrine <command> --help`. */
  description: string;
  /** The value's placeholder in the help (`ID`, `N`, `FILE`). */
  value?: string;
}

/** A text value: `--site ID`, `--site=ID`; with `choices`, one of them. */
export interface StringOption extends OptionBase {
  type: 'string';
  choices?: readonly string[];
  /** A value in a form of its own, checked with the others before `run`: "must be <forms>, not 'x'". */
  format?: { test: (value: string) => boolean; forms: string };
  default?: string;
}

/** A whole number from `min` to `max`: `--limit 50`. */
export interface IntegerOption extends OptionBase {
  type: 'integer';
  min: number;
  max: number;
  default?: number;
}

/** A flag: `--all`. */
export interface BooleanOption extends Omit<OptionBase, 'value'> {
  type: 'boolean';
}

export type OptionSpec = StringOption | IntegerOption | BooleanOption;
export type OptionSpecs = Record<string, OptionSpec>;

type ValueOf<S extends OptionSpec> = S extends BooleanOption
  ? boolean
  : S extends IntegerOption
    ? S extends { default: number }
      ? number
      : number | undefined
    : S extends { default: string }
      ? string
      : string | undefined;

export type OptionValues<O extends OptionSpecs> = { -readonly [K in keyof O]: ValueOf<O[K]> };

export interface PositionalSpec {
  /** Its placeholder in the usage: `N`, `ID`, `FILE`. */
  name: string;
  /** What it is, for messages: 'order number' ("takes one order number, got 2"). */
  what: string;
  /** How a missing one is asked for, when not 'the <what>': "the subscription's id". */
  needs?: string;
  /** A positive whole number (checked; still given to `run` as its text). */
  integer?: boolean;
  optional?: boolean;
  /**
   * Arguments that start with '-' but are this argument, not an option: '-3' (a wrong order number, said so), an id
   * whose first character is '-'.
   */
  dashValue?: RegExp;
}

export interface ParsedArgs<O extends OptionSpecs = OptionSpecs> {
  options: OptionValues<O>;
  positionals: string[];
}

export interface Command<O extends OptionSpecs = OptionSpecs> {
  /** 'orders refund': the words that run it. */
  name: string;
  options?: O;
  positionals?: readonly PositionalSpec[];
  /** More lines for `vitrine <command> --help`, after the options. */
  details?: readonly string[];
  run(args: ParsedArgs<O>, io: CliIo): Promise<number>;
}

/** A command, its option values typed from its declaration. */
export const defineCommand = <O extends OptionSpecs = Record<never, never>>(command: Command<O>): Command<O> => command;
