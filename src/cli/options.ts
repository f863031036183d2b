// The one declaration of each command's options: a table whose entries node:util parseArgs reads (type,
// multiple), from which the command's --help lists them (value, help), and which holds the range of each
// whole-number option (whole). A command's --help shows exactly what it parses (test/cli.test.ts).

/** One option of a command. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
  /** Its value as --help shows it: '<file>', 'N', 'google|rfc' (none for a flag). */
  readonly value?: string;
  /**
   * What --help says of it: lines separated by '\n', the first beside the option (a first line that is
   * empty puts the text under it). `{range}` stands for the whole-number option's "default X; MIN to MAX".
   */
  readonly help: string;
  /** A whole-number option: its value when absent, and its range (see wholeNumber). */
  readonly whole?: { readonly fallback: number; readonly min: number; readonly max: number };
}

/** A command's options by name (without the leading --), in the order --help lists them. */
export type OptionTable = Readonly<Record<string, OptionSpec>>;

/**
 * The options section of a --help: one option per entry (those named in `names`, in that order, when
 * given), its help text starting at `column` (continuation lines indented to it; a name too long for the
 * column is followed by two spaces). Called once per --help.
 */
export function optionsHelp(table: OptionTable, column: number, names: readonly string[] = Object.keys(table)): string {
  const lines: string[] = [];
  for (const name of names) {
    const spec = table[name];
    if (spec === undefined) throw new Error(`--help names an option the table does not declare: --${name}`);
    const label = `  --${name}${spec.value === undefined ? '' : ` ${spec.value}`}`;
    const range = spec.whole === undefined ? '' : `default ${spec.whole.fallback}; ${spec.whole.min} to ${spec.whole.max}`;
    const [first, ...rest] = spec.help.replaceAll('{range}', range).split('\n');
    if (first === '') lines.push(label);
    else lines.push(label.length <= column - 2 ? label.padEnd(column) + first : `${label}  ${first}`);
    for (const line of rest) lines.push(' '.repeat(column) + line);
  }
  return lines.join('\n');
}
