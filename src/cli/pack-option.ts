// --pack of the commands that read a pack (check, audit, page, pages, usage): the pack opened and checked, and
// the reading it answers with. The pack command itself, which builds one, is pack-command.ts.
import { usageError } from './command-spec.js';
import type { RobotsReading } from '../core/robots.js';
import type { RobotsPack } from '../core/pack/index.js';

/**
 * The pack a reader names (check, audit, page and pages --pack), opened and checked before any input is read,
 * with the reading it answers with: its --max-bytes (another is a usage error), its mode unless --mode is
 * given. Once per run. dataCheckOwed: its data's whole check is left to the many-host matcher that reads it
 * (check: done as the matcher holds the data, else when it opens, before any output).
 */
export async function openedPack(file: string, asked: RobotsReading, given: ReadonlySet<string>, options: { dataCheckOwed?: boolean } = {}): Promise<{ pack: RobotsPack; reading: RobotsReading }> {
  const { openPackFile } = await import('../node/pack/index.js');
  const pack = openPackFile(file, options).pack;
  if (given.has('max-bytes') && asked.maxBytes !== pack.maxBytes) throw usageError(`--max-bytes ${asked.maxBytes}: the pack's bodies were read up to ${pack.maxBytes === 0 ? 'their end (--max-bytes 0)' : `${pack.maxBytes} bytes`}, and it answers with that reading (leave --max-bytes out, or pack again)`);
  return { pack, reading: { mode: given.has('mode') ? asked.mode : pack.mode, maxBytes: pack.maxBytes } };
}
