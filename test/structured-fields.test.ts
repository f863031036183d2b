// The one RFC 9651 Dictionary reader (src/core/structured-fields.ts) held equal to the structured-headers
// package: over generated dictionaries (every kind of item, parameters, inner lists, strings holding `,` `;`
// and `"`), and over random text made of the characters that matter to the grammar, where both must agree on
// whether the text is a dictionary and on what it holds. Then the reader's use: a robots.txt Content-Usage
// line and the HTTP header read the same preferences.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { parseDictionary, parseItem, Token, DisplayString, type Dictionary, type BareItem, type Parameters } from 'structured-headers';
import { readStructuredDictionary, readStructuredItem, type StructuredBareItem, type StructuredMember } from '../src/core/structured-fields.js';
import { parseContentUsageHeader, readContentUsage, parseRobots, RobotsError } from '../src/node/index.js';

type Plain = { type: string; value: unknown };
type PlainMember = { list: Plain[][] | null; item: Plain | null; parameters: [string, Plain][] };

function plainOfLibrary(item: BareItem): Plain {
  if (typeof item === 'number') return { type: 'number', value: item };
  if (typeof item === 'string') return { type: 'string', value: item };
  if (typeof item === 'boolean') return { type: 'boolean', value: item };
  if (item instanceof Token) return { type: 'token', value: item.toString() };
  if (item instanceof DisplayString) return { type: 'display-string', value: item.toString() };
  if (item instanceof Date) return { type: 'date', value: item.getTime() / 1000 };
  return { type: 'byte-sequence', value: Buffer.from(item as ArrayBuffer).toString('base64') };
}
function plainOfOurs(item: StructuredBareItem): Plain {
  if (item.kind === 'integer' || item.kind === 'decimal') return { type: 'number', value: item.value };
  if (item.kind === 'byte-sequence') return { type: 'byte-sequence', value: Buffer.from(item.value, 'base64').toString('base64') };
  return { type: item.kind, value: item.value };
}
const parametersOfLibrary = (parameters: Parameters): [string, Plain][] => [...parameters].map(([key, value]) => [key, plainOfLibrary(value)]);

function libraryRead(text: string): Map<string, PlainMember> | null {
  let dictionary: Dictionary;
  try {
    dictionary = parseDictionary(text);
  } catch {
    return null;
  }
  const plain = new Map<string, PlainMember>();
  for (const [key, [value, parameters]] of dictionary) {
    if (Array.isArray(value)) plain.set(key, { list: value.map(([item, itemParameters]) => [plainOfLibrary(item), ...parametersOfLibrary(itemParameters).map(([k, v]) => ({ type: `;${k}`, value: v }))]), item: null, parameters: parametersOfLibrary(parameters) });
    else plain.set(key, { list: null, item: plainOfLibrary(value), parameters: parametersOfLibrary(parameters) });
  }
  return plain;
}
function ourRead(text: string): Map<string, PlainMember> | null {
  const read = readStructuredDictionary(text);
  if (!read.ok) return null;
  const parametersOf = (parameters: ReadonlyMap<string, StructuredBareItem>): [string, Plain][] => [...parameters].map(([key, value]) => [key, plainOfOurs(value)]);
  const plain = new Map<string, PlainMember>();
  for (const [key, member] of read.members as ReadonlyMap<string, StructuredMember>) {
    if (member.kind === 'inner-list') plain.set(key, { list: member.items.map(({ item, parameters }) => [plainOfOurs(item), ...parametersOf(parameters).map(([k, v]) => ({ type: `;${k}`, value: v }))]), item: null, parameters: parametersOf(member.parameters) });
    else plain.set(key, { list: null, item: plainOfOurs(member.item), parameters: parametersOf(member.parameters) });
  }
  return plain;
}

// Generated dictionaries, written out as a sender might (spaces and tabs around commas, spaces in inner lists).
const key = fc.stringMatching(/^[a-z*][a-z0-9_\-.*]{0,6}$/);
const integer = fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }).map(String);
const decimal = fc.tuple(fc.boolean(), fc.stringMatching(/^[0-9]{1,12}$/), fc.stringMatching(/^[0-9]{1,3}$/)).map(([minus, whole, fraction]) => `${minus ? '-' : ''}${whole}.${fraction}`);
const string = fc.array(fc.constantFrom('a', 'Z', ' ', ',', ';', '=', '(', ')', '\\"', '\\\\', '%', '~', ':', 'n'), { maxLength: 8 }).map((parts) => `"${parts.join('')}"`);
const token = fc.stringMatching(/^[A-Za-z*][A-Za-z0-9!#$%&'*+\-.^_`|~:/]{0,6}$/);
const bytes = fc.uint8Array({ maxLength: 9 }).map((value) => `:${Buffer.from(value).toString('base64')}:`);
const boolean = fc.constantFrom('?0', '?1');
const displayString = fc.string({ unit: 'grapheme', maxLength: 5 }).map((value) => `%"${[...Buffer.from(value, 'utf8')].map((byte) => byte >= 0x20 && byte <= 0x7e && byte !== 0x25 && byte !== 0x22 ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, '0')}`).join('')}"`);
const bareItem = fc.oneof(integer, decimal, string, token, bytes, boolean, displayString);
const parameters = fc.array(fc.tuple(key, fc.option(bareItem, { nil: null })).map(([k, value]) => (value === null ? `;${k}` : `;${k}=${value}`)), { maxLength: 3 }).map((list) => list.join(''));
const item = fc.tuple(bareItem, parameters).map(([value, params]) => value + params);
const innerList = fc.tuple(fc.array(item, { maxLength: 3 }), fc.constantFrom(' ', '  '), parameters).map(([items, space, params]) => `(${items.join(space)})${params}`);
const member = fc.tuple(key, fc.oneof(item, innerList, parameters.map((params) => ({ boolean: params })))).map(([k, value]) => (typeof value === 'string' ? `${k}=${value}` : `${k}${value.boolean}`));
const separator = fc.constantFrom(',', ', ', ' ,', '\t,\t', ' , ');
/** A date last (structured-headers reads a date only at the end of a value: a defect of that package, see below). */
const lastDate = fc.option(fc.tuple(key, fc.integer({ min: -999_999_999_999, max: 999_999_999_999 })).map(([k, seconds]) => `${k}=@${seconds}`), { nil: null });
const dictionaryText = fc.tuple(fc.array(member, { minLength: 1, maxLength: 5 }), separator, lastDate, fc.constantFrom('', ' ', '  ')).map(([members, sep, date, lead]) => lead + [...members, ...(date === null ? [] : [date])].join(sep));

describe('the RFC 9651 Dictionary reader agrees with structured-headers', () => {
  it('on generated dictionaries: every member, item, parameter and inner list the same', () => {
    fc.assert(fc.property(dictionaryText, (text) => {
      const ours = ourRead(text);
      expect(ours, text).not.toBeNull();
      expect(ours, text).toEqual(libraryRead(text));
    }), { numRuns: 3000, seed: 20261202 });
  });

  it('an Item field (a Signature-Agent value) reads as structured-headers reads it: the item and its parameters, or none', () => {
    const libraryItem = (text: string): [Plain, [string, Plain][]] | null => {
      try {
        const [value, params] = parseItem(text);
        return [plainOfLibrary(value), parametersOfLibrary(params)];
      } catch {
        return null;
      }
    };
    const ourItem = (text: string): [Plain, [string, Plain][]] | null => {
      const read = readStructuredItem(text);
      return read.ok ? [plainOfOurs(read.item.item), [...read.item.parameters].map(([k, value]) => [k, plainOfOurs(value)])] : null;
    };
    fc.assert(fc.property(item, fc.constantFrom('', ' ', '  '), (text, pad) => {
      expect(ourItem(pad + text + pad), text).toEqual(libraryItem(pad + text + pad));
    }), { numRuns: 3000, seed: 20261202 });
    expect(ourItem('"https://chatgpt.com"')).toEqual([{ type: 'string', value: 'https://chatgpt.com' }, []]);
    expect(readStructuredItem('"https://chatgpt.com" x')).toEqual({ ok: false, problem: 'the end expected after the item ("x" at character 23)' });
  });

  it('on random text of the grammar\'s characters: the same texts are dictionaries, holding the same', () => {
    const alphabet = fc.constantFrom('a', 'b', 'Z', '*', '=', ',', ';', ' ', '\t', '(', ')', '"', '\\', ':', '?', '0', '1', '-', '.', '%', 'f', '/', '+', 'y', 'n', '\x07', 'é');
    fc.assert(fc.property(fc.array(alphabet, { maxLength: 14 }).map((parts) => parts.join('')), (text) => {
      expect(ourRead(text), JSON.stringify(text)).toEqual(libraryRead(text));
    }), { numRuns: 20000, seed: 20261202 });
  });

  it('the examples that matter to Content-Usage, including a string holding a comma', () => {
    for (const text of ['train-ai=y, note="a,b"', 'train-ai=n;v=1, search=y', 'a=(b "c;d" :AQI=:), b', 'train-ai=?1', 'x="\\"y\\""', 'ok=%"caf%c3%a9"', 'k=-1.5;q=0.125']) {
      expect(ourRead(text), text).toEqual(libraryRead(text));
      expect(ourRead(text), text).not.toBeNull();
    }
  });

  it('a date anywhere (RFC 9651 3.3.7); structured-headers reads one only at the end of the value', () => {
    const read = readStructuredDictionary('a=@1700000000, b=y');
    expect(read.ok && [...read.members].map(([k, m]) => [k, m.kind === 'item' && m.item.value])).toEqual([['a', 1700000000], ['b', 'y']]);
    expect(() => parseDictionary('a=@1700000000, b=y')).toThrow();
  });

  it('what is not a dictionary says why and where', () => {
    expect(readStructuredDictionary('train-ai=n,,')).toEqual({ ok: false, problem: 'a key must start with a lower-case letter or "*" ("," at character 12)' });
    expect(readStructuredDictionary('train-ai=n,')).toEqual({ ok: false, problem: 'a member expected after the last comma (the end of the value)' });
    expect(readStructuredDictionary('train-ai=maybe\x07')).toEqual({ ok: false, problem: 'a comma or the end expected after the member "train-ai" ("\x07" at character 15)' });
    expect(readStructuredDictionary('a="b')).toEqual({ ok: false, problem: 'a string must end with \'"\' (the end of the value)' });
    expect(readStructuredDictionary('a=:abcde:')).toEqual({ ok: false, problem: 'a byte sequence must decode as base64 (":" at character 9)' });
    expect(readStructuredDictionary('a=1.2345')).toEqual({ ok: false, problem: 'a decimal has at most 3 digits after its point (the end of the value)' });
    expect(readStructuredDictionary('a=1234567890123456')).toEqual({ ok: false, problem: 'an integer has at most 15 digits (the end of the value)' });
    expect(readStructuredDictionary('')).toEqual({ ok: true, members: new Map() });
  });
});

describe('Content-Usage read the same in a robots.txt line and in the HTTP header', () => {
  it('train-ai=y, note="a,b": train-ai is y in both; the string states nothing', () => {
    expect(parseContentUsageHeader('train-ai=y, note="a,b"')).toEqual(new Map([['train-ai', 'y']]));
    expect(readContentUsage('train-ai=y, note="a,b"')).toEqual({ ok: true, path: null, preferences: new Map([['train-ai', 'y']]), stateNothing: ['note="a,b": the value must be y or n'] });
    const robots = parseRobots('User-agent: *\nContent-Usage: /blog/ train-ai=y, note="a,b"\nContent-Usage: train-ai=n\n');
    expect(robots.usage('https://example.com/blog/x', 'GPTBot').usage['train-ai']).toBe('allowed');
  });
  it('a value that is not a dictionary: the line is ignored, the header refused, for the same reason', () => {
    expect(readContentUsage('/a/ train-ai=n,,')).toEqual({ ok: false, problem: 'not a Structured Field Dictionary (RFC 9651): a key must start with a lower-case letter or "*" ("," at character 12): the line is ignored' });
    expect(() => parseContentUsageHeader('train-ai=n,,')).toThrow(new RobotsError('INVALID_ARGUMENT', 'Content-Usage header "train-ai=n,," is not a Structured Field Dictionary (RFC 9651): a key must start with a lower-case letter or "*" ("," at character 12)'));
  });
  it('the header and the line agree on generated dictionaries (but a line\'s first word like `*` or `*a` is its path)', () => {
    fc.assert(fc.property(dictionaryText, (text) => {
      fc.pre(!/^\*[^=,;\s]*(\s|$)/.test(text.trim()));
      const line = readContentUsage(text.trim());
      expect(line.ok && line.preferences, text).toEqual(parseContentUsageHeader(text));
    }), { numRuns: 500, seed: 20261202 });
  });
});
