// RFC 9651 (Structured Field Values for HTTP) Dictionaries, read by the algorithm of its section 4.2: the one
// reader of the project, for a robots.txt Content-Usage line and for the HTTP Content-Usage header alike (the
// core imports no npm package; test/structured-fields.test.ts holds it equal to the structured-headers
// package over generated dictionaries).
//
// Worst case: one pass over the text, every character looked at a bounded number of times (a key, a token or a
// string is scanned once; nothing backtracks): O(n) time and O(n) memory for n characters.

/** A bare item (RFC 9651 3.3): what a member or a parameter holds. `text` is the item as written. */
export type StructuredBareItem =
  | { readonly kind: 'integer' | 'decimal' | 'date'; readonly value: number; readonly text: string }
  | { readonly kind: 'string' | 'token' | 'display-string' | 'byte-sequence'; readonly value: string; readonly text: string }
  | { readonly kind: 'boolean'; readonly value: boolean; readonly text: string };

/** One item with its parameters (key -> bare item, the last of a repeated key kept). */
export interface StructuredItem {
  readonly item: StructuredBareItem;
  readonly parameters: ReadonlyMap<string, StructuredBareItem>;
}

/** A dictionary member's value: an item, or an inner list of items, each with parameters. */
export type StructuredMember =
  | (StructuredItem & { readonly kind: 'item' })
  | { readonly kind: 'inner-list'; readonly items: readonly StructuredItem[]; readonly parameters: ReadonlyMap<string, StructuredBareItem>; readonly text: string };

/** A dictionary read: its members in order (a repeated key keeps its first place and its last value), or why it is none. */
export type StructuredDictionary =
  | { readonly ok: true; readonly members: ReadonlyMap<string, StructuredMember> }
  | { readonly ok: false; readonly problem: string };

const SP = 0x20;
const HTAB = 0x09;

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}
function isLowerAlpha(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}
function isAlpha(code: number): boolean {
  return isLowerAlpha(code | 0x20);
}
/** key characters after the first (RFC 9651 3.1.2): lcalpha, DIGIT, `_`, `-`, `.`, `*`. */
function isKeyChar(code: number): boolean {
  return isLowerAlpha(code) || isDigit(code) || code === 0x5f || code === 0x2d || code === 0x2e || code === 0x2a;
}

/** Whether a text is a dictionary key (RFC 9651 3.1.2: lcalpha or `*`, then key characters): a usage category check --usage takes. Once per run. */
export function isDictionaryKey(text: string): boolean {
  if (text === '' || (!isLowerAlpha(text.charCodeAt(0)) && text.charCodeAt(0) !== 0x2a)) return false;
  for (let i = 1; i < text.length; i++) if (!isKeyChar(text.charCodeAt(i))) return false;
  return true;
}
/** tchar (RFC 9110 5.6.2), `:` and `/`: token characters after the first (RFC 9651 3.3.4). */
const TOKEN_PUNCTUATION = "!#$%&'*+-.^_`|~:/";
function isTokenChar(code: number): boolean {
  return isAlpha(code) || isDigit(code) || TOKEN_PUNCTUATION.includes(String.fromCharCode(code));
}
function isBase64Char(code: number): boolean {
  return isAlpha(code) || isDigit(code) || code === 0x2b || code === 0x2f || code === 0x3d;
}

/**
 * Whether base64 text decodes, padding synthesised where it is missing (RFC 9651 4.2.7; the forgiving rule
 * of WHATWG's atob): up to two `=` only at the end of a length that is a multiple of 4, and never a length
 * of 4n + 1 without them.
 */
function decodesAsBase64(text: string): boolean {
  let length = text.length;
  if (length % 4 === 0) for (let pad = 0; pad < 2 && length > 0 && text.charCodeAt(length - 1) === 0x3d; pad++) length--;
  if (length % 4 === 1) return false;
  return !text.slice(0, length).includes('=');
}

/** A failed read: the reason, with where (1-based character) and what stood there. */
class ParseFailure {
  constructor(readonly reason: string) {}
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** One dictionary read; `at` moves forward only. */
class DictionaryReader {
  at = 0;
  constructor(private readonly text: string) {}

  private fail(reason: string): never {
    const shown = this.at < this.text.length ? `"${this.text[this.at]}" at character ${this.at + 1}` : 'the end of the value';
    throw new ParseFailure(`${reason} (${shown})`);
  }
  private code(): number {
    return this.at < this.text.length ? this.text.charCodeAt(this.at) : -1;
  }
  private skipSpaces(): void {
    while (this.code() === SP) this.at++;
  }
  private skipOptionalWhitespace(): void {
    for (let code = this.code(); code === SP || code === HTAB; code = this.code()) this.at++;
  }

  /** An Item field (RFC 9651 4.2: leading and trailing spaces, one item with its parameters, nothing after). */
  wholeItem(): StructuredItem {
    this.skipSpaces();
    const item = this.item();
    this.skipSpaces();
    if (this.at < this.text.length) this.fail('the end expected after the item');
    return item;
  }

  dictionary(): Map<string, StructuredMember> {
    const members = new Map<string, StructuredMember>();
    this.skipSpaces();
    while (this.at < this.text.length) {
      const key = this.key();
      if (this.code() === 0x3d) {
        this.at++;
        members.set(key, this.itemOrInnerList());
      } else members.set(key, { kind: 'item', item: { kind: 'boolean', value: true, text: '' }, parameters: this.parameters() });
      this.skipOptionalWhitespace();
      if (this.at >= this.text.length) break;
      if (this.code() !== 0x2c) this.fail(`a comma or the end expected after the member "${key}"`);
      this.at++;
      this.skipOptionalWhitespace();
      if (this.at >= this.text.length) this.fail('a member expected after the last comma');
    }
    return members;
  }

  private key(): string {
    const start = this.at;
    const first = this.code();
    if (!isLowerAlpha(first) && first !== 0x2a) this.fail('a key must start with a lower-case letter or "*"');
    this.at++;
    while (isKeyChar(this.code())) this.at++;
    return this.text.slice(start, this.at);
  }

  private itemOrInnerList(): StructuredMember {
    if (this.code() !== 0x28) return { kind: 'item', ...this.item() };
    const start = this.at;
    this.at++;
    const items: StructuredItem[] = [];
    for (;;) {
      this.skipSpaces();
      if (this.at >= this.text.length) this.fail('an inner list must end with ")"');
      if (this.code() === 0x29) {
        this.at++;
        const text = this.text.slice(start, this.at);
        return { kind: 'inner-list', items, parameters: this.parameters(), text };
      }
      items.push(this.item());
      const next = this.code();
      if (next !== SP && next !== 0x29) this.fail('a space or ")" expected after an item of an inner list');
    }
  }

  private item(): StructuredItem {
    const item = this.bareItem();
    return { item, parameters: this.parameters() };
  }

  private parameters(): Map<string, StructuredBareItem> {
    const parameters = new Map<string, StructuredBareItem>();
    while (this.code() === 0x3b) {
      this.at++;
      this.skipSpaces();
      const key = this.key();
      let value: StructuredBareItem = { kind: 'boolean', value: true, text: '' };
      if (this.code() === 0x3d) {
        this.at++;
        value = this.bareItem();
      }
      parameters.set(key, value);
    }
    return parameters;
  }

  private bareItem(): StructuredBareItem {
    const start = this.at;
    const code = this.code();
    if (code === 0x2d || isDigit(code)) return this.number(start, 'integer');
    if (code === 0x22) return { kind: 'string', value: this.string(), text: this.text.slice(start, this.at) };
    if (code === 0x2a || isAlpha(code)) {
      this.at++;
      while (isTokenChar(this.code())) this.at++;
      const text = this.text.slice(start, this.at);
      return { kind: 'token', value: text, text };
    }
    if (code === 0x3a) {
      this.at++;
      while (isBase64Char(this.code())) this.at++;
      if (this.code() !== 0x3a) this.fail('a byte sequence holds base64 and ends with ":"');
      const base64 = this.text.slice(start + 1, this.at);
      if (!decodesAsBase64(base64)) this.fail('a byte sequence must decode as base64');
      this.at++;
      return { kind: 'byte-sequence', value: base64, text: this.text.slice(start, this.at) };
    }
    if (code === 0x3f) {
      this.at++;
      const digit = this.code();
      if (digit !== 0x30 && digit !== 0x31) this.fail('a boolean is ?0 or ?1');
      this.at++;
      return { kind: 'boolean', value: digit === 0x31, text: this.text.slice(start, this.at) };
    }
    if (code === 0x40) {
      this.at++;
      const date = this.number(start, 'date');
      if (date.kind !== 'date') this.fail('a date is a whole number of seconds');
      return date;
    }
    if (code === 0x25) return this.displayString(start);
    return this.fail(code < 0 ? 'a value expected' : 'not the start of a value (a number, "string", token, :bytes:, ?boolean, @date or %"display string")');
  }

  /** RFC 9651 4.2.4: at most 15 digits, or 12 before the point and 3 after it. */
  private number(start: number, kind: 'integer' | 'date'): StructuredBareItem {
    const signed = this.code() === 0x2d;
    if (signed) this.at++;
    if (!isDigit(this.code())) this.fail('a digit expected');
    const digitsFrom = this.at;
    let point = -1;
    for (let code = this.code(); ; code = this.code()) {
      if (isDigit(code)) this.at++;
      else if (code === 0x2e && point < 0) {
        if (this.at - digitsFrom > 12) this.fail('a decimal has at most 12 digits before its point');
        point = this.at;
        this.at++;
      } else break;
      if (point < 0 && this.at - digitsFrom > 15) this.fail('an integer has at most 15 digits');
      if (point >= 0 && this.at - digitsFrom > 16) this.fail('a decimal has at most 16 characters');
    }
    const digits = this.text.slice(digitsFrom, this.at);
    const text = this.text.slice(start, this.at);
    if (point < 0) return { kind, value: (signed ? -1 : 1) * Number.parseInt(digits, 10), text };
    if (point === this.at - 1) this.fail('a decimal cannot end with its point');
    if (this.at - point - 1 > 3) this.fail('a decimal has at most 3 digits after its point');
    if (kind === 'date') this.fail('a date is a whole number of seconds');
    return { kind: 'decimal', value: (signed ? -1 : 1) * Number.parseFloat(digits), text };
  }

  /** RFC 9651 4.2.5: printable ASCII; a backslash escapes only `"` and `\`. */
  private string(): string {
    this.at++;
    let value = '';
    for (;;) {
      if (this.at >= this.text.length) this.fail('a string must end with \'"\'');
      const code = this.code();
      if (code === 0x5c) {
        this.at++;
        const escaped = this.code();
        if (escaped !== 0x22 && escaped !== 0x5c) this.fail('a backslash in a string escapes only \'"\' or "\\"');
        value += this.text[this.at++];
      } else if (code === 0x22) {
        this.at++;
        return value;
      } else if (code < 0x20 || code > 0x7e) {
        this.fail('a string holds printable ASCII only');
      } else value += this.text[this.at++];
    }
  }

  /** RFC 9651 4.2.10: `%"`, printable ASCII with `%xx` (lower-case hex) escapes of UTF-8 bytes, `"`. */
  private displayString(start: number): StructuredBareItem {
    this.at++;
    if (this.code() !== 0x22) this.fail('a display string starts with %"');
    this.at++;
    const bytes: number[] = [];
    for (;;) {
      if (this.at >= this.text.length) this.fail('a display string must end with \'"\'');
      const code = this.code();
      if (code < 0x20 || code > 0x7e) this.fail('a display string holds printable ASCII only');
      this.at++;
      if (code === 0x25) {
        const hex = this.text.slice(this.at, this.at + 2);
        if (!/^[0-9a-f]{2}$/.test(hex)) this.fail('"%" in a display string is followed by two lower-case hex digits');
        bytes.push(Number.parseInt(hex, 16));
        this.at += 2;
      } else if (code === 0x22) {
        let value: string;
        try {
          value = utf8.decode(new Uint8Array(bytes));
        } catch {
          return this.fail('a display string must be UTF-8');
        }
        return { kind: 'display-string', value, text: this.text.slice(start, this.at) };
      } else bytes.push(code);
    }
  }
}

/**
 * An RFC 9651 Dictionary read from a field value (a Content-Usage header or a robots.txt Content-Usage line's
 * preferences): its members, or why the whole value is none (RFC 9651: a field that fails to parse is ignored
 * whole). Called once per header or line.
 */
export function readStructuredDictionary(text: string): StructuredDictionary {
  try {
    return { ok: true, members: new DictionaryReader(text).dictionary() };
  } catch (error) {
    if (error instanceof ParseFailure) return { ok: false, problem: error.reason };
    throw error;
  }
}

/** An RFC 9651 Item read from a field value (a Signature-Agent header's quoted URL), or why it is none. Once per field. */
export function readStructuredItem(text: string): { readonly ok: true; readonly item: StructuredItem } | { readonly ok: false; readonly problem: string } {
  try {
    return { ok: true, item: new DictionaryReader(text).wholeItem() };
  } catch (error) {
    if (error instanceof ParseFailure) return { ok: false, problem: error.reason };
    throw error;
  }
}
