// robotstxt history <origin-or-host> --store <dir>: the versions of an origin's robots.txt a store keeps, and
// what each change did to the verdicts of a URL list (src/node/history/version-changes.ts).
import { existsSync } from 'node:fs';
import { parseCommand, usageError, type Command, type CommandSpec, type ParsedCommand } from './command-spec.js';
import type { RobotsReading } from '../core/robots.js';
import { MODE_OPTION, MAX_BYTES_OPTION, AGENT_OPTION, agentValues, withHelp, readingOf } from './shared-options.js';
import { versionChanges, flipLine, readUrlFile, ownOriginLines } from '../node/history/index.js';
import { terminalSafe, storedOrigin, otherOriginLines } from './common.js';

/** What history states about itself: its options (src/cli/command-spec.ts), usage, help and docs come from it. */
export const HISTORY_SPEC = {
  name: 'history',
  options: {
    store: { type: 'string', value: '<dir>', help: 'a store filled by robotstxt fetch, which keeps versions (--keep-versions)' },
    urls: { type: 'string', value: '<file>', help: 'URLs (of the origin) or paths (starting with /), one per line: for each change,\nthose whose verdict flips' },
    agent: withHelp(AGENT_OPTION, 'with --urls: the crawler whose verdicts are compared (repeatable; default *)'),
    scheme: { type: 'string', choices: ['https', 'http'], fallback: 'https', help: 'the scheme of a host given without one (default https; when the store keeps\nversions of the host only under the other scheme, those are listed)' },
    format: { type: 'string', choices: ['text', 'json'], fallback: 'text', help: 'text (default) or one JSON object' },
    mode: MODE_OPTION,
    'max-bytes': MAX_BYTES_OPTION,
  },
  positionals: { shown: '<origin-or-host>', min: 1, max: 1, error: (count: number) => `history needs exactly one <origin-or-host>, got ${count} (see robotstxt history --help)` },
  required: ['store'],
  column: 22,
  description: `Lists the versions of an origin's robots.txt that a store keeps (robotstxt fetch --store keeps a new
version whenever the body or the effect changes): when each was first and last seen, its effect and status.
With --urls, each change is followed by the URLs whose verdict it flips, per --agent, with the rule now.

Exit status: 0 listed, 2 usage or file errors (an origin the store has no versions of is one).`,
  examples: [
    'robotstxt history https://example.com --store ./robots',
    'robotstxt history example.com --store ./robots --urls important-urls.txt --agent Googlebot --agent GPTBot',
  ],
} as const satisfies CommandSpec;

/** robotstxt history. */
export const COMMAND: Command = { spec: HISTORY_SPEC, run: (args, io) => runHistory(args, io.out, io.err) };

/** What one run of history does, read off its options. */
export interface HistoryPlan {
  store: string;
  /** The origin as named, and the scheme given for a bare host (null: the store's own). */
  origin: string;
  scheme: 'https' | 'http' | null;
  agents: string[];
  urls: string | null;
  reading: RobotsReading;
  format: 'text' | 'json';
}

/** The plan of a history run from its parsed arguments. Pure. Once per run. */
export function planHistory(parsed: ParsedCommand<(typeof HISTORY_SPEC)['options']>): HistoryPlan {
  const { values, positionals, given } = parsed;
  return {
    store: values.store as string, origin: positionals[0], scheme: given.has('scheme') ? values.scheme as 'https' | 'http' : null,
    agents: values.agent.length > 0 ? agentValues(values.agent) : ['*'], urls: values.urls ?? null, reading: readingOf(values), format: values.format,
  };
}

/** robotstxt history: the plan (planHistory), the origin's versions in the store, and with --urls each change's flips. Once per run. */
export async function runHistory(args: string[], out: (text: string) => void, stderr: (text: string) => void): Promise<number> {
  const plan = planHistory(parseCommand(HISTORY_SPEC, args));
  const { store, agents, urls } = plan;
  if (!existsSync(store)) throw usageError(`--store '${store}' does not exist`);
  const { origin, versions: stored } = await storedOrigin(store, plan.origin, plan.scheme ?? undefined);
  let lines: Uint8Array | null = null;
  if (urls !== null) {
    const own = ownOriginLines(Buffer.from(`${(await readUrlFile(urls)).join('\n')}\n`), origin.origin);
    otherOriginLines(own.other, own.firstOther, origin.origin, urls, stderr);
    lines = own.lines;
  }
  const urlCount = lines === null ? 0 : lines.reduce((count, byte) => count + (byte === 0x0a ? 1 : 0), 0);
  const changes = lines === null ? [] : versionChanges(store, origin.fileKey, agents, lines, plan.reading);
  if (plan.format === 'json') {
    out(JSON.stringify({ origin: origin.origin, versions: stored.versions, changes: changes.map((change) => ({ agent: change.agent, before: change.before.firstSeen, after: change.after.firstSeen, newlyDisallowed: change.newlyDisallowed, newlyAllowed: change.newlyAllowed })) }, null, 2) + '\n');
    return 0;
  }
  out(`${origin.origin}: ${stored.versions.length} version(s) in the store\n`);
  for (const version of stored.versions) out(`  ${version.firstSeen}  ${version.effect.padEnd(12)}  status ${version.status === 0 ? '-' : version.status}  seen until ${version.lastSeen}\n`);
  for (const change of changes) {
    out(`change ${change.before.firstSeen} -> ${change.after.firstSeen}, ${terminalSafe(change.agent)}: ${change.newlyDisallowed.length} newly disallowed, ${change.newlyAllowed.length} newly allowed (of ${urlCount} URL(s))\n`);
    // URLs and rules are the list's and the file's text: control characters written as \xNN
    for (const flip of change.newlyDisallowed) out(`  ${terminalSafe(flipLine('newly disallowed', flip))}\n`);
    for (const flip of change.newlyAllowed) out(`  ${terminalSafe(flipLine('newly allowed', flip))}\n`);
  }
  return 0;
}
