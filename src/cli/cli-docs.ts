// docs/cli.md, made from the command registry (commands.ts) and each command's spec (command-spec.ts): the
// reference a reader looks things up in. scripts/cli-docs.mjs writes it (npm run docs); test/cli-docs.test.ts
// fails when the file in the repository is not what this makes. Nothing here depends on the machine.
import { COMMANDS } from './commands.js';
import { defaultOf, optionList, usageLine, type CommandSpec, type OptionSpec } from './command-spec.js';

const cell = (text: string): string => text.replace(/\s*\n\s*/g, ' ').replaceAll('|', '\\|').trim();

/** What an option takes, and its default and range, as the reference table states them. */
function takes(option: OptionSpec): string {
  if (option.whole !== undefined) return option.whole.machine ?? `default ${option.whole.fallback}; ${option.whole.min} to ${option.whole.max}`;
  const parts: string[] = [];
  if (option.choices !== undefined) parts.push(option.choices.map((choice) => `\`${choice}\``).join(', '));
  else if (option.value !== undefined) parts.push(`\`${option.value}\``);
  if (option.multiple === true) parts.push('repeatable');
  const fallback = defaultOf(option);
  if (fallback !== '') parts.push(`default \`${fallback}\``);
  return parts.join('; ');
}

/** When an option applies: what it needs and what it excludes. */
function applies(option: OptionSpec): string {
  const parts: string[] = [];
  if (option.requires !== undefined) parts.push(`with ${optionList(option.requires)}`);
  if (option.excludes !== undefined) parts.push(`not with ${optionList(option.excludes)}`);
  return parts.join('; ');
}

/** Help text without this machine's numbers: a whole-number option's `{range}` as the table states it. */
function helpOf(option: OptionSpec): string {
  const range = option.whole === undefined ? '' : option.whole.machine ?? `default ${option.whole.fallback}; ${option.whole.min} to ${option.whole.max}`;
  return option.help.replaceAll('{range}', range);
}

function commandSection(spec: CommandSpec, summary: string): string {
  const usage = [usageLine(spec), ...(spec.otherForms ?? [])].join('\n');
  const required = [...(spec.oneOf ?? []).map((group) => `exactly one of ${optionList(group, spec.options)}`), ...(spec.required ?? []).map((name) => optionList([name], spec.options))];
  const rows = Object.entries(spec.options).map(([name, option]) => `| \`--${name}\` | ${cell(takes(option))} | ${cell(applies(option))} | ${cell(helpOf(option))} |`);
  return [
    `## robotstxt ${spec.name}`,
    summary,
    '```text\n' + usage + '\n```',
    ...(required.length > 0 ? [`Required: ${required.join('; ')}.`] : []),
    '```text\n' + spec.description + '\n```',
    '| option | takes | applies | what it does |\n|---|---|---|---|\n' + rows.join('\n'),
    ...(spec.notes !== undefined ? ['```text\n' + spec.notes + '\n```'] : []),
    'Examples:\n\n```sh\n' + spec.examples.join('\n') + '\n```',
  ].join('\n\n');
}

/** docs/cli.md: every command, in the registry's order. Loads every command module (docs and tests only). */
export async function cliReference(): Promise<string> {
  const sections: string[] = [];
  for (const entry of COMMANDS) {
    const { COMMAND } = await entry.load();
    sections.push(commandSection(COMMAND.spec, `\`robotstxt ${entry.synopsis}\`: ${entry.summary.join(' ')}.`));
  }
  const contents = COMMANDS.map((entry) => `- [robotstxt ${entry.name}](#robotstxt-${entry.name})`).join('\n');
  return `# Command line reference

Made from the commands' own declarations by \`npm run docs\` (src/cli/cli-docs.ts): what each command
takes, what each option needs and excludes, and its help. A test fails when this file is out of date.
\`robotstxt <command> --help\` prints the same for a command, with this machine's numbers.

${contents}

${sections.join('\n\n')}
`;
}
