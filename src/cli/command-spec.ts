// The declarative command layer: each command states its options once, in a table (type, allowed values,
// default, range, what it needs and what it excludes), with its positional arguments, the groups of which
// exactly one option is required, its description and examples. From that one statement come: the parse
// (node:util parseArgs, then every check the table states, with one wording for each kind of error), the
// typed values a command reads, its --help (usage line and options section), and docs/cli.md
// (src/cli/cli-docs.ts). A command's code keeps only the rules no table can state (a default that depends on
// another option, a combination of values).
import { parseArgs } from 'node:util';
import { RobotsError } from '../core/errors.js';

/** One option of a command. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  /** Repeatable (its values form a list). */
  readonly multiple?: boolean;
  /** Its value as --help shows it: '<file>', 'N' (a flag has none); a choice option shows its choices when absent. */
  readonly value?: string;
  /**
   * What --help says of it: lines separated by '\n', the first beside the option (a first line that is
   * empty puts the text under it). `{range}` stands for a whole-number option's "default X; MIN to MAX".
   */
  readonly help: string;
  /**
   * A whole-number option: its value when absent, and its range; `machine`: how docs/cli.md states a default
   * or range that depends on the machine (the cores), where --help states this machine's numbers.
   */
  readonly whole?: { readonly fallback: number; readonly min: number; readonly max: number; readonly machine?: string; readonly here?: string };
  /** The values it takes (any other is a usage error naming them). */
  readonly choices?: readonly string[];
  /** Its value when absent (a choice or text option). */
  readonly fallback?: string;
  /** It applies only when one of these options is given too. */
  readonly requires?: readonly string[];
  /** It may not be given with any of these. */
  readonly excludes?: readonly string[];
}

/** A command's options by name (without the leading --), in the order --help lists them. */
export type OptionTable = Readonly<Record<string, OptionSpec>>;

/** What a command states about itself. */
export interface CommandSpec<T extends OptionTable = OptionTable> {
  readonly name: string;
  readonly options: T;
  /** Its positional arguments as the usage line shows them ('' for none), and how many it takes. */
  readonly positionals: { readonly shown: string; readonly min: number; readonly max: number; readonly error?: (count: number, given: ReadonlySet<string>) => string };
  /** Groups of options of which exactly one must be given (the usage line shows them first). */
  readonly oneOf?: readonly (readonly string[])[];
  /** Options that must be given (shown next in the usage line). */
  readonly required?: readonly string[];
  /** The options --help lists under "Options:" (default: all), and other sections after them (title, names). */
  readonly listed?: readonly string[];
  readonly sections?: readonly { readonly title: string; readonly names: readonly string[]; readonly column?: number }[];
  /** The paragraphs between the usage line and the options, and after them (plain text, 100 columns). */
  readonly description: string;
  readonly notes?: string;
  readonly examples: readonly string[];
  /** The column option help starts at in --help. */
  readonly column?: number;
  /** Other forms of the command, as more usage lines (`robotstxt test --batch ...`). */
  readonly otherForms?: readonly string[];
  /**
   * Options only before the first positional argument (robots_main's contract): what follows is read as
   * arguments, so that an agent or URL that looks like an option (-h, --help) is asked about.
   */
  readonly optionsFirst?: boolean;
}

/** Where a command writes: text to standard output and standard error, and the stream itself (for commands that stream). */
export interface CommandIo {
  out(text: string): void;
  err(text: string): void;
  stdout: NodeJS.WritableStream;
}

/** A command's module: what it states, and how it runs (returns the exit code). */
export interface Command {
  readonly spec: CommandSpec;
  run(args: string[], io: CommandIo): Promise<number> | number;
  /**
   * Whether a run streams its output (whole lines as it goes): SIGINT and SIGTERM then write out what was
   * handed to standard output before the process ends. A command that writes once, at the end, has none.
   */
  streams?(args: readonly string[]): boolean;
  /** A line filter (check, as grep): a reader that stops early (`| head`) is normal, and exits 0. */
  readonly lineFilter?: boolean;
}

/**
 * The arguments a command reads as options: those before `--`, and with optionsFirst those before the first
 * positional (an option's value counts with it). For --help and the choice of a form (test --batch).
 */
export function optionArguments(spec: CommandSpec, args: readonly string[]): string[] {
  const options: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') break;
    if (spec.optionsFirst === true && (!arg.startsWith('-') || arg === '-')) break;
    options.push(arg);
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : null;
    if (spec.optionsFirst === true && name !== null && spec.options[name]?.type === 'string') options.push(args[++i] ?? ''); // (its value)
  }
  return options;
}

/** Whether one of `names` is among a command's options (optionArguments). */
export function hasOption(spec: CommandSpec, args: readonly string[], names: readonly string[]): boolean {
  return optionArguments(spec, args).some((arg) => names.includes(arg));
}

/** The value a command reads for one option: what the table says it is. */
export type OptionValue<S extends OptionSpec> =
  S extends { readonly type: 'boolean' } ? boolean
    : S extends { readonly whole: object } ? number
      : S extends { readonly multiple: true } ? string[]
        : S extends { readonly choices: readonly (infer C)[] } ? (S extends { readonly fallback: string } ? C : C | undefined)
          : S extends { readonly fallback: string } ? string : string | undefined;

/** The parsed values of a command: one typed field per option of its table. */
export type OptionValues<T extends OptionTable> = { -readonly [K in keyof T]: OptionValue<T[K]> };

/** A command's arguments parsed and checked: its typed values, which options were given, and its positionals. */
export interface ParsedCommand<T extends OptionTable> {
  values: OptionValues<T>;
  /** The options given on the command line (values of the others are their defaults). */
  given: ReadonlySet<keyof T & string>;
  positionals: string[];
}

/** A usage error (exit 2): one line, naming what is wrong. */
export function usageError(message: string): RobotsError {
  return new RobotsError('USAGE', message);
}

/** `--a`, `--a or --b`, `--a, --b or --c`. */
export function optionList(names: readonly string[], table?: OptionTable): string {
  const shown = names.map((name) => `--${name}${table?.[name]?.value !== undefined && table[name].type === 'string' && table[name].choices === undefined ? ` ${table[name].value}` : ''}`);
  return shown.length <= 1 ? shown.join('') : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
}

/** Where --help looks for option lines, and the text of a choice option's value. */
function shownValue(spec: OptionSpec): string | undefined {
  return spec.value ?? spec.choices?.join('|');
}

/** A whole number within an option's range, or its usage error. The one range check of every numeric option. */
export function wholeNumber(name: string, text: string, whole: NonNullable<OptionSpec['whole']>): number {
  if (!/^\d+$/.test(text) || Number(text) < whole.min || Number(text) > whole.max) throw usageError(`--${name} must be a whole number from ${whole.min} to ${whole.max}, got '${text}'`);
  return Number(text);
}

/** One of an option's choices, or its usage error. */
function choice(name: string, text: string, choices: readonly string[]): string {
  if (!choices.includes(text)) throw usageError(`--${name} must be ${optionChoices(choices)}, got '${text}'`);
  return text;
}
const optionChoices = (choices: readonly string[]): string => (choices.length <= 1 ? choices.join('') : `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`);

/**
 * Parses a command's arguments by its spec: node:util parseArgs (unknown options and missing values as
 * one-line usage errors), then each option's type, range or choices, what it requires and excludes, the
 * groups of which exactly one is needed, the required options and the positional count. Once per run.
 */
export function parseCommand<T extends OptionTable>(spec: CommandSpec<T>, args: readonly string[]): ParsedCommand<T> {
  const table = spec.options;
  // options first: `--` before the first argument that is not an option (or an option's value)
  const options = spec.optionsFirst === true ? optionArguments(spec, args) : null;
  const raw = parseRaw(table, options === null || options.length === args.length || args[options.length] === '--' ? args : [...options, '--', ...args.slice(options.length)], spec.name);
  const given = new Set(Object.keys(raw.values).filter((name) => raw.values[name] !== undefined)) as Set<keyof T & string>;
  const values: Record<string, unknown> = {};
  for (const [name, option] of Object.entries(table)) {
    const value = raw.values[name];
    if (option.type === 'boolean') values[name] = value === true;
    else if (option.multiple === true) values[name] = (value as string[] | undefined) ?? [];
    else if (option.whole !== undefined) values[name] = value === undefined ? option.whole.fallback : wholeNumber(name, String(value), option.whole);
    else if (option.choices !== undefined) values[name] = value === undefined ? option.fallback : choice(name, String(value), option.choices);
    else values[name] = value ?? option.fallback;
  }
  const { min, max } = spec.positionals;
  if (raw.positionals.length < min || raw.positionals.length > max) {
    throw usageError(spec.positionals.error?.(raw.positionals.length, given) ?? `${spec.name} takes ${min === max ? `${min}` : max === Infinity ? `at least ${min}` : min === 0 ? `at most ${max}` : `${min} to ${max}`} argument(s) (${spec.positionals.shown}), got ${raw.positionals.length} (see robotstxt ${spec.name} --help)`);
  }
  for (const group of spec.oneOf ?? []) {
    if (group.filter((name) => given.has(name)).length !== 1) throw usageError(`${spec.name} needs exactly one of ${optionList(group, table)}`);
  }
  for (const name of spec.required ?? []) {
    if (!given.has(name)) throw usageError(`${spec.name} needs ${table[name]?.multiple === true ? 'at least one ' : ''}${optionList([name], table)} (see robotstxt ${spec.name} --help)`);
  }
  for (const name of given) {
    const option = table[name];
    if (option.requires !== undefined && !option.requires.some((other) => given.has(other))) throw usageError(`--${name} applies only with ${optionList(option.requires)}`);
    const excluded = option.excludes?.find((other) => given.has(other));
    if (excluded !== undefined) throw usageError(`--${name} and --${excluded} cannot be given together`);
  }
  return { values: values as OptionValues<T>, given, positionals: raw.positionals };
}

/** node:util parseArgs with unknown options and missing values turned into one-line usage errors. */
function parseRaw(table: OptionTable, args: readonly string[], command: string): { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] } {
  // `--threads -1`: a value that starts with '-' is still the option's value (parseArgs would call it
  // ambiguous); each option's own check then names what is wrong with it
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--') {
      joined.push(...args.slice(i));
      break;
    }
    const name = args[i].startsWith('--') ? args[i].slice(2) : null;
    const next = args[i + 1];
    // `--agent --only disallowed`: an option's value missing before another option (parseArgs calls it "ambiguous")
    if (name !== null && table[name]?.type === 'string' && next !== undefined && next.startsWith('--') && next !== '--') {
      throw usageError(`--${name} needs a value, got the option ${next} (write --${name}=${next} if that is the value; see robotstxt ${command} --help)`);
    }
    if (name !== null && table[name]?.type === 'string' && next !== undefined && next.startsWith('-') && next !== '-' && !next.startsWith('--')) {
      joined.push(`--${name}=${next}`);
      i++;
    } else joined.push(args[i]);
  }
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {};
  for (const [name, option] of Object.entries(table)) options[name] = option.multiple === true ? { type: option.type, multiple: true } : { type: option.type };
  try {
    const { values, positionals } = parseArgs({ args: joined, options, allowPositionals: true, strict: true });
    return { values: values as Record<string, string | boolean | string[] | undefined>, positionals };
  } catch (error) {
    const message = (error as Error).message.split('\n')[0].replace(/\. To specify a positional argument.*$/, '');
    // a misspelt option: the nearest one the command takes
    const unknown = /^Unknown option '--([^'=]+)/.exec(message)?.[1];
    const near = unknown === undefined ? null : nearestName(unknown, Object.keys(table));
    throw usageError(`${message}${near === null ? '' : `; did you mean --${near}?`} (see robotstxt ${command} --help)`);
  }
}

/**
 * The name among `names` nearest to a misspelt one (edit distance, a swap of two letters counting one), when
 * it is near enough to be meant: at most 1 edit for names of up to 4 letters, 2 beyond. The one "did you
 * mean" of options and commands. Per misspelling.
 */
export function nearestName(misspelt: string, names: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const name of names) {
    const distance = editDistance(misspelt.toLowerCase(), name.toLowerCase());
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  const allowed = misspelt.length <= 4 ? 1 : 2;
  return best !== null && bestDistance <= allowed ? best : null;
}

/** Optimal string alignment distance (insertions, deletions, substitutions, adjacent swaps). Linear in memory. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return Infinity;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) current[j] = Math.min(current[j], before[j - 2] + 1);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length];
}

/** An option's default as --help and docs/cli.md state it ('' when it has none to state). */
export function defaultOf(option: OptionSpec): string {
  if (option.whole !== undefined) return String(option.whole.fallback);
  return option.fallback ?? '';
}

/**
 * The options section of a --help: one option per entry (those named in `names`, in that order), its help
 * text starting at `column` (continuation lines indented to it; a name too long for the column is followed
 * by two spaces). Called once per --help.
 */
export function optionsHelp(table: OptionTable, column: number, names: readonly string[] = Object.keys(table)): string {
  const lines: string[] = [];
  for (const name of names) {
    const spec = table[name];
    if (spec === undefined) throw new Error(`--help names an option the table does not declare: --${name}`);
    const value = shownValue(spec);
    const label = `  --${name}${value === undefined ? '' : ` ${value}`}`;
    const range = spec.whole === undefined ? '' : spec.whole.here ?? `default ${spec.whole.fallback}; ${spec.whole.min} to ${spec.whole.max}`;
    const [first, ...rest] = spec.help.replaceAll('{range}', range).split('\n');
    if (first === '') lines.push(label);
    else lines.push(label.length <= column - 2 ? label.padEnd(column) + first : `${label}  ${first}`);
    for (const line of rest) lines.push(' '.repeat(column) + line);
  }
  return lines.join('\n');
}

/** The usage line of a command: its one-of groups, its required options, [options], then its positionals. */
export function usageLine(spec: CommandSpec): string {
  const table = spec.options;
  const parts = [`robotstxt ${spec.name}`];
  for (const group of spec.oneOf ?? []) parts.push(`(${group.map((name) => optionList([name], table)).join(' | ')})`);
  for (const name of spec.required ?? []) parts.push(`${optionList([name], table)}${table[name]?.multiple === true ? '...' : ''}`);
  const shownFirst = new Set([...(spec.oneOf ?? []).flat(), ...(spec.required ?? [])]);
  if (Object.keys(table).some((name) => !shownFirst.has(name))) parts.push('[options]');
  if (spec.positionals.shown !== '') parts.push(spec.positionals.shown);
  return parts.join(' ');
}

/** A command's --help: usage, description, options (and its other sections), notes, examples. */
export function helpText(spec: CommandSpec): string {
  const column = spec.column ?? 26;
  const inSections = new Set((spec.sections ?? []).flatMap((section) => section.names));
  const listed = spec.listed ?? Object.keys(spec.options).filter((name) => !inSections.has(name));
  const usage = [usageLine(spec), ...(spec.otherForms ?? [])].map((line, i) => `${i === 0 ? 'Usage: ' : '       '}${line}`).join('\n');
  const parts = [usage, spec.description];
  if (listed.length > 0) parts.push(`Options:\n${optionsHelp(spec.options, column, listed)}`);
  for (const section of spec.sections ?? []) parts.push(`${section.title}\n${optionsHelp(spec.options, section.column ?? column, section.names)}`);
  if (spec.notes !== undefined) parts.push(spec.notes);
  parts.push(`Examples:\n${spec.examples.map((example) => `  ${example}`).join('\n')}`);
  return parts.join('\n\n');
}

/** The table with `requires` added to each of its options (shared options that apply only with another one in some command). */
export function requiring<T extends OptionTable>(table: T, requires: readonly string[], except: readonly string[] = []): T {
  const out: Record<string, OptionSpec> = {};
  for (const [name, option] of Object.entries(table)) out[name] = except.includes(name) ? option : { ...option, requires };
  return out as T;
}
