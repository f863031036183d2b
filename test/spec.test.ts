// One example (or more) for every statement of docs/specification.md, section by section.
// ID_* = behaviour RFC 9309 also requires; GoogleOnly_* = the reference's own departures.
import { describe, it, expect } from 'vitest';
import { parseRobots } from '../src/node/index.js';
import '../src/node/core-node.js'; // the WebAssembly core, loaded from build/
import { core } from '../src/core/wasm/core.js';
import { modelPath, modelNormalize } from './model.js';
import { bytes, raw, expectVerdict, expectDecidingLine } from './helpers.js';

const G = 'Googlebot';
const latin1 = (b: Uint8Array): string => String.fromCharCode(...b);

describe('1. bytes to lines', () => {
  it('GoogleOnly_BomSkipped: a full UTF-8 BOM before the first line is skipped', () => {
    expectVerdict(bytes([0xef, 0xbb, 0xbf], 'User-agent: *\nDisallow: /a\n'), G, '/a', false);
  });
  it('GoogleOnly_PartialBomSkipped: EF or EF BB alone are skipped too', () => {
    expectVerdict(bytes([0xef], 'User-agent: *\nDisallow: /a\n'), G, '/a', false);
    expectVerdict(bytes([0xef, 0xbb], 'User-agent: *\nDisallow: /a\n'), G, '/a', false);
  });
  it('GoogleOnly_BrokenBomLosesOnlyItsPrefix: EF 11 BF loses the EF; 11 BF stay and spoil the key', () => {
    expectVerdict(bytes([0xef, 0x11, 0xbf], 'User-agent: *\nDisallow: /a\n'), G, '/a', true);
    // with the spoilt first line gone, the rest still parses
    expectVerdict(bytes([0xef, 0x11, 0xbf], '\nUser-agent: *\nDisallow: /a\n'), G, '/a', false);
  });
  it('ID_BomElsewhereIsData: a second BOM, or one later in the file, is part of the line', () => {
    expectVerdict(bytes([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], 'User-agent: *\nDisallow: /a\n'), G, '/a', true);
    expectVerdict(bytes('User-agent: *\n', [0xef, 0xbb, 0xbf], 'Disallow: /a\n'), G, '/a', true);
  });
  it('ID_LineEnds: LF, CR and CRLF each end a line; numbering starts at 1', () => {
    const body = 'User-agent: *\rDisallow: /a\r\nDisallow: /b\nDisallow: /c';
    expectDecidingLine(body, G, '/a', 2);
    expectDecidingLine(body, G, '/b', 3);
    expectDecidingLine(body, G, '/c', 4);
  });
  it('ID_CrCrLfIsTwoLineEnds and LfCr is two line ends', () => {
    expectDecidingLine('User-agent: *\r\r\nDisallow: /a', G, '/a', 3);
    expectDecidingLine('User-agent: *\n\rDisallow: /a', G, '/a', 3);
    expectDecidingLine('User-agent: *\r\n\r\nDisallow: /a', G, '/a', 3);
  });
  it('ID_TextAfterLastLineEndIsALine', () => {
    expectVerdict('User-agent: *\nDisallow: /a', G, '/a', false);
  });
  it('GoogleOnly_LineTruncatedAt16663Bytes: an over-long rule is truncated, not ignored', () => {
    const keep = 'a'.repeat(16663 - 'Disallow: /'.length);
    const body = `User-agent: *\nDisallow: /${keep}b\n`;
    expectVerdict(body, G, `/${keep}c`, false); // rule became /aaa...a (16663-byte line)
    expectVerdict(body, G, `/${keep.slice(1)}`, true);
    // exactly 16663 bytes: nothing lost
    const exact = `User-agent: *\nDisallow: /${keep.slice(1)}b\n`;
    expectVerdict(exact, G, `/${keep.slice(1)}c`, true);
    // rfc mode keeps the whole line
    expectVerdict(body, G, `/${keep}c`, true, { mode: 'rfc' });
  });
  it('GoogleOnly_LineCapCountsKeyAndComment: the cap applies to the raw line', () => {
    const pad = ' '.repeat(16663 - 'Disallow: /x'.length);
    expectVerdict(`User-agent: *\nDisallow: /x${pad}#comment\n`, G, '/x', false);
    expectVerdict(`User-agent: *\nDisallow:${' '.repeat(16663)}/x\n`, G, '/x', true);
  });
  it('ID_FileLimit500KiB: bytes past 512,000 are not read by default; maxBytes 0 reads all', () => {
    const filler = '#'.repeat(512000 - 'User-agent: *\n'.length) + '\n';
    const body = 'User-agent: *\n' + filler + 'Disallow: /late\n';
    expectVerdict(body, G, '/late', true);
    expectVerdict(body, G, '/late', false, { maxBytes: 0 });
    expectVerdict(body, G, '/late', false, { maxBytes: 600000 });
  });
  it('ID_NulEndsLineContent: Disallow: /a\\0bc means /a', () => {
    expectVerdict(bytes('User-agent: *\nDisallow: /a', [0], 'bc\n'), G, '/ax', false);
  });
});

describe('2. a line to key and value', () => {
  it('ID_HashStartsComment anywhere, no escaping', () => {
    expectVerdict('User-agent: * # all\nDisallow: /a#b\n', G, '/ax', false);
    expectVerdict('User-agent: *\nDisallow: /a\\#b\n', G, '/a\\x', false);
  });
  it('ID_WhitespaceStrippedAtEndsInnerKept', () => {
    expectVerdict('User-agent: *\n \t Disallow \t : \x0b/a b \x0c\t\n', G, '/a b', false);
    expectVerdict('User-agent: *\nDisallow: /a b\n', G, '/a', true);
  });
  it('ID_FirstColonSeparates: values keep later colons', () => {
    expectVerdict('User-agent: *\nDisallow: /a:b\n', G, '/a:b', false);
    expectVerdict('User-agent: *\nDisallow: /a:b\n', G, '/a:', true);
  });
  it('GoogleOnly_KeyIsTextBeforeFirstColon: "Disallow /page:*" is key "Disallow /page", value "*"', () => {
    expectVerdict('User-agent: *\nDisallow /page:*\n', G, '/other', false);
  });
  it('GoogleOnly_MissingColonTwoTokens: "Disallow /x" and "User-agent Googlebot" are accepted', () => {
    expectVerdict('User-agent Googlebot\nDisallow /x\n', G, '/x', false);
    expectVerdict('User-agent Googlebot\nDisallow \t /x\n', G, '/x', false);
    expectVerdict('User-agent Googlebot\nDisallow /x\n', G, '/x', true, { mode: 'rfc' });
  });
  it('GoogleOnly_MissingColonThreeTokensIgnored: "Disallow /x y" is ignored', () => {
    expectVerdict('User-agent: *\nDisallow /x y\n', G, '/x', true);
  });
  it('ID_EmptyKeyIsNoDirective', () => {
    expectVerdict('User-agent: *\n: /x\n', G, '/x', true);
  });
  it('ID_EmptyValueIsARealDirective: "Disallow:" makes the agent named', () => {
    const body = 'User-agent: Googlebot\nDisallow:\n\nUser-agent: *\nDisallow: /\n';
    expectVerdict(body, G, '/x', true);
    expectVerdict(body, 'Bingbot', '/x', false);
  });
});

describe('3. keys', () => {
  it('ID_KeysCaseInsensitive', () => {
    expectVerdict('USER-AGENT: *\nDISALLOW: /a\n', G, '/a', false);
    expectVerdict('uSeR-aGeNt: *\ndisallow: /a\nALLOW: /a/b\n', G, '/a/b', true);
  });
  for (const typo of ['useragent', 'user agent']) {
    it(`GoogleOnly_UserAgentTypo "${typo}"`, () => {
      expectVerdict(`${typo}: *\nDisallow: /a\n`, G, '/a', false);
      expectVerdict(`${typo}: *\nDisallow: /a\n`, G, '/a', true, { mode: 'rfc' });
    });
  }
  for (const typo of ['dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw']) {
    it(`GoogleOnly_DisallowTypo "${typo}"`, () => {
      expectVerdict(`User-agent: *\n${typo}: /a\n`, G, '/a', false);
      expectVerdict(`User-agent: *\n${typo}: /a\n`, G, '/a', true, { mode: 'rfc' });
    });
  }
  it('GoogleOnly_SitemapTypo "site-map" is a sitemap', () => {
    expect(parseRobots('Site-map: https://e.com/s.xml\n').sitemaps).toEqual(['https://e.com/s.xml']);
    expect(parseRobots('Site-map: https://e.com/s.xml\n', { mode: 'rfc' }).sitemaps).toEqual([]);
  });
  it('ID_KeysArePrefixes: User-agents, Disallowed, Allowance, Sitemaps are accepted', () => {
    expectVerdict('User-agents: *\nDisallowed: /a\nAllowance: /a/b\n', G, '/a/x', false);
    expectVerdict('User-agents: *\nDisallowed: /a\nAllowance: /a/b\n', G, '/a/b', true);
    expect(parseRobots('Sitemaps: https://e.com/s.xml\n').sitemaps).toEqual(['https://e.com/s.xml']);
  });
  it('ID_UnknownKeysAreIgnored: user_agent, crawl-delay, noindex', () => {
    expectVerdict('user_agent: *\nDisallow: /a\n', G, '/a', true);
    expectVerdict('User-agent: *\nnoindex: /a\ncrawl-delay: 5\n', G, '/a', true);
  });
});

describe('4. pattern normalisation', () => {
  const normalize = (value: string | Uint8Array, mode: 'google' | 'rfc' = 'google'): string => {
    const input = typeof value === 'string' ? raw(value) : value;
    const engine = latin1(core().urls.normalizePattern(input, mode === 'rfc' ? 1 : 0));
    expect(String.fromCharCode(...modelNormalize([...input], mode, false)), 'model').toBe(engine);
    return engine;
  };
  it('ID_PercentEscapesKeptWithUpperCaseHex: %2f -> %2F, never decoded', () => {
    expect(normalize('/a%2fb%c3%A9')).toBe('/a%2Fb%C3%A9');
  });
  it('ID_NonAsciiBytesPercentEncoded byte by byte, no UTF-8 validation', () => {
    expect(normalize(bytes('/é'))).toBe('/%C3%A9');
    expect(normalize(raw('/\xe9'))).toBe('/%E9');
    expect(normalize(raw('/\xff\x80'))).toBe('/%FF%80');
  });
  it('ID_EverythingElseKept: invalid escapes, escaped unreserved characters', () => {
    expect(normalize('/%')).toBe('/%');
    expect(normalize('/%zz%4')).toBe('/%zz%4');
    expect(normalize('/%7E*$ ?')).toBe('/%7E*$ ?');
  });
  it('GoogleOnly_UrlNotNormalised: compared byte for byte with the normalised pattern', () => {
    const body = bytes('User-agent: *\nDisallow: /é\n');
    expectVerdict(body, G, '/%C3%A9', false);
    expectVerdict(body, G, '/é', true); // raw é in the URL
    expectVerdict(body, G, '/%c3%a9', true); // lower-case escape in the URL
    expectVerdict('User-agent: *\nDisallow: /%7Ea\n', G, '/~a', true);
    expectVerdict('User-agent: *\nDisallow: /%7Ea\n', G, '/%7Ea', false);
    expectVerdict('User-agent: *\nDisallow: /a%2fb\n', G, '/a%2Fb', false);
    expectVerdict('User-agent: *\nDisallow: /a%2fb\n', G, '/a%2fb', true);
  });
  it('ID_Latin1PatternByte: a raw \\xE9 in the file becomes %E9', () => {
    expectVerdict(raw('User-agent: *\nDisallow: /caf\xe9\n'), G, '/caf%E9', false);
  });
  it('ID_UserAgentAndSitemapValuesNotNormalised', () => {
    expect(parseRobots(bytes('Sitemap: https://e.com/é%2f.xml\n')).sitemaps).toEqual(['https://e.com/é%2f.xml']);
    expectVerdict(bytes('User-agent: Googlébot\nDisallow: /\n'), 'Googl', '/', false); // token stops at é
  });
  it('ID_RfcModeNormalisesBothSides: unreserved escapes decoded, reserved kept, non-ASCII encoded', () => {
    expect(normalize('/%7e%41%2f%2A', 'rfc')).toBe('/~A%2F%2A');
    expectVerdict('User-agent: *\nDisallow: /%7Ea\n', G, '/~a', false, { mode: 'rfc' });
    expectVerdict('User-agent: *\nDisallow: /~a\n', G, '/%7ea', false, { mode: 'rfc' });
    expectVerdict(bytes('User-agent: *\nDisallow: /é\n'), G, '/é', false, { mode: 'rfc' });
    expectVerdict(bytes('User-agent: *\nDisallow: /é\n'), G, '/%c3%a9', false, { mode: 'rfc' });
    expectVerdict('User-agent: *\nDisallow: /a%2Fb\n', G, '/a/b', true, { mode: 'rfc' });
  });
  it('ID_RfcModeEscapedOperatorsMatchLiteralBytes: %2A and %24 name a literal * and $ (RFC 9309 2.2.3)', () => {
    expectVerdict('User-agent: *\nDisallow: /path/file-with-a-%2A.html\n', G, 'https://www.example.com/path/file-with-a-*.html', false, { mode: 'rfc' });
    expectVerdict('User-agent: *\nDisallow: /path/foo-%24\n', G, 'https://www.example.com/path/foo-$', false, { mode: 'rfc' });
  });
});

describe('5. URL to the path that is matched', () => {
  const cases: [string, string][] = [
    ['', '/'], ['http://www.example.com', '/'], ['example.com', '/'], ['a/b', '/b'], ['/a', '/a'], ['//a/b/c', '/b/c'],
    ['example.com?a', '/?a'], ['http://h.com;jsessionid=1', '/;jsessionid=1'], ['example.com/a;b#c', '/a;b'],
    ['http://x#/a', '/'], ['http://www.example.com/a/b?c=http://d.e/', '/a/b?c=http://d.e/'], ['a?b://c/d', '/?b://c/d'],
    ['https://u:p@h.com:8080/p;x?q#f', '/p;x?q'], ['http:/x/y', '/x/y'], ['mailto:a@b', '/'],
    ['HTTP://EXAMPLE.COM/A/../B//C', '/A/../B//C'], ['http://e.com/a b', '/a b'], ['a#b://c/d', '/'], ['//://x/y', '/y'],
    ['http://e.com/a\0b', '/a'], ['http://e\0.com/a', '/'],
  ];
  for (const [url, path] of cases) {
    it(`ID_PathOf ${JSON.stringify(url)} is ${JSON.stringify(path)}`, () => {
      const input = raw(url);
      expect(latin1(core().urls.extractPath(input))).toBe(path);
      expect(String.fromCharCode(...modelPath([...input]))).toBe(path);
    });
  }
  it('ID_PathDecidesTheVerdict: host, scheme, fragment are not matched', () => {
    const body = 'User-agent: *\nDisallow: /p;x?q\nDisallow: /?a\n';
    expectVerdict(body, G, 'https://u:p@h.com:8080/p;x?q#f', false);
    expectVerdict(body, G, 'example.com?a', false);
    expectVerdict(body, G, 'example.com/a#?a', true);
  });
});

describe('6. user-agent lines and groups', () => {
  it('ID_GroupEndsOnlyAtUserAgentAfterRule: sitemap, unknown keys, blank lines and junk do not end it', () => {
    const body = 'User-agent: a\nSitemap: https://e.com/s\nfoo: bar\n\n# c\njunk\nUser-agent: b\nDisallow: /x\n';
    expectVerdict(body, 'a', '/x', false);
    expectVerdict(body, 'b', '/x', false);
  });
  it('ID_UserAgentAfterRuleStartsNewGroup', () => {
    const body = 'User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n';
    expectVerdict(body, 'a', '/y', true);
    expectVerdict(body, 'b', '/x', true);
  });
  it('ID_GlobalAgent: "*" alone or followed by whitespace; "*bot" is not global', () => {
    expectVerdict('User-agent: * foo\nDisallow: /x\n', G, '/x', false);
    expectVerdict('User-agent: *\tfoo\nDisallow: /x\n', G, '/x', false);
    expectVerdict('User-agent: *bot\nDisallow: /x\n', G, '/x', true);
  });
  it('GoogleOnly_ProductTokenIsLeadingRunOfLettersHyphenUnderscore', () => {
    for (const value of ['Googlebot Images', 'Googlebot/2.1', 'Googlebot,Bingbot', 'googlebot; +http://x']) {
      expectVerdict(`User-agent: ${value}\nDisallow: /x\n`, G, '/x', false);
    }
    expectVerdict('User-agent: Googlebot,Bingbot\nDisallow: /x\n', 'Bingbot', '/x', true);
    expectVerdict('User-agent: Bot2\nDisallow: /x\n', 'Bot', '/x', false);
    expectVerdict('User-agent: Bot2\nDisallow: /x\n', 'Bot2', '/x', true);
    expectVerdict('User-agent: Google_bot-x\nDisallow: /x\n', 'google_BOT-X', '/x', false);
    expectVerdict('User-agent: Bot\x7fx\nDisallow: /x\n', 'Bot', '/x', false); // DEL ends the token
    expectVerdict('User-agent: Bot\x7fx\nDisallow: /x\n', 'Bot\x7fx', '/x', true);
    expectVerdict('User-agent: Bot[x]\nDisallow: /x\n', 'Bot', '/x', false);
  });
  it('ID_AgentComparedCaseInsensitivelyAndExactly: no prefix logic', () => {
    expectVerdict('User-agent: GOOGLEBOT\nDisallow: /x\n', 'googlebot', '/x', false);
    expectVerdict('User-agent: Googlebot\nDisallow: /x\n', 'Googlebot-News', '/x', true);
    expectVerdict('User-agent: Googlebot-News\nDisallow: /x\n', G, '/x', true);
  });
  it('GoogleOnly_QueryAgentUsedVerbatim: "Googlebot/2.1" or a full header never match a group', () => {
    expectVerdict('User-agent: Googlebot\nDisallow: /x\n', 'Googlebot/2.1', '/x', true);
    expectVerdict('User-agent: Googlebot\nDisallow: /x\n', 'Mozilla/5.0 (compatible; Googlebot/2.1)', '/x', true);
  });
  it('ID_GroupsForSameAgentMerge, and all * groups merge', () => {
    const body = 'User-agent: G\nDisallow: /a\n\nUser-agent: *\nDisallow: /c\n\nUser-agent: g\nDisallow: /b\n\nUser-agent: *\nDisallow: /d\n';
    expectVerdict(body, 'G', '/a', false);
    expectVerdict(body, 'G', '/b', false);
    expectVerdict(body, 'G', '/c', true);
    expectVerdict(body, 'other', '/c', false);
    expectVerdict(body, 'other', '/d', false);
    expectVerdict(body, 'other', '/a', true);
  });
  it('ID_GroupNamingStarAndAgentIsTheAgentsOwn', () => {
    const body = 'User-agent: *\nUser-agent: Googlebot\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n';
    expectVerdict(body, G, '/a', false);
    expectVerdict(body, G, '/b', true);
    expectVerdict(body, 'other', '/a', false);
    expectVerdict(body, 'other', '/b', false);
  });
  it('ID_AgentNamedAnywhereIgnoresStarRules: even a trailing user-agent line without rules', () => {
    const body = 'User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\n';
    expectVerdict(body, G, '/x', true);
    expectVerdict(body, 'other', '/x', false);
  });
  it('ID_RulesBeforeFirstUserAgentIgnored', () => {
    expectVerdict('Disallow: /x\nUser-agent: *\nDisallow: /y\n', G, '/x', true);
    expect(parseRobots('Disallow: /x\nUser-agent: *\n').diagnostics.map((d) => d.code)).toContain('rule-outside-group');
  });
  it('ID_SeveralAgentsPoolTheirGroups', () => {
    const body = 'User-agent: Googlebot\nAllow: /a/b\nDisallow: /c\n\nUser-agent: Googlebot-Image\nDisallow: /a\n\nUser-agent: *\nDisallow: /d\n';
    expectVerdict(body, ['Googlebot-Image', 'Googlebot'], '/a/b', true);
    expectVerdict(body, ['Googlebot-Image', 'Googlebot'], '/a/c', false);
    expectVerdict(body, ['Googlebot-Image', 'Googlebot'], '/c', false);
    expectVerdict(body, ['Googlebot-Image', 'Googlebot'], '/d', true);
    expectVerdict(body, ['Nobody', 'Other'], '/d', false);
  });
});

describe('7. matching a pattern against the path', () => {
  const body = (rule: string): string => `User-agent: *\nDisallow: ${rule}\n`;
  it('ID_AnchoredPrefixMatch', () => {
    expectVerdict(body('/fish'), G, '/fish.html', false);
    expectVerdict(body('/fish'), G, '/Fish', true);
    expectVerdict(body('/fish'), G, '/a/fish', true);
  });
  it('ID_StarMatchesAnyRunIncludingSlashAndQuery', () => {
    expectVerdict(body('/a*b'), G, '/ab', false);
    expectVerdict(body('/a*b'), G, '/a/x?y=b', false);
    expectVerdict(body('/a*b'), G, '/a/x', true);
    expectVerdict(body('*.php'), G, '/x/y.php?z', false);
  });
  it('ID_DollarOnlyAtEndAnchors; elsewhere literal', () => {
    expectVerdict(body('/a$'), G, '/a', false);
    expectVerdict(body('/a$'), G, '/a?x=1', true);
    expectVerdict(body('/a$'), G, '/ab', true);
    expectVerdict(body('/a$b'), G, '/a$b', false);
    expectVerdict(body('/a$b'), G, '/ab', true);
    expectVerdict(body('/*.pdf$'), G, '/x.pdf', false);
    expectVerdict(body('/*.pdf$'), G, '/x.pdf.html', true);
    expectVerdict(body('/a$$'), G, '/a$', false);
    expectVerdict(body('$'), G, '/', true);
    expectVerdict(body('*$'), G, '/anything', false);
  });
  it('ID_OtherBytesLiteralAndCaseSensitive: ? . [ are ordinary', () => {
    expectVerdict(body('/a?b'), G, '/a?b', false);
    expectVerdict(body('/a?b'), G, '/axb', true);
    expectVerdict(body('/a.b'), G, '/axb', true);
    expectVerdict(body('/[ab]'), G, '/[ab]x', false);
    expectVerdict(body('/[ab]'), G, '/a', true);
  });
  it('ID_EmptyPatternMatchesWithPriorityZero and never decides', () => {
    expectVerdict('User-agent: *\nDisallow:\nAllow:\n', G, '/x', true);
    expectDecidingLine('User-agent: *\nDisallow:\n', G, '/x', null);
  });
  it('ID_PatternNotStartingWithSlashOrStarNeverMatches', () => {
    expectVerdict(body('fish'), G, '/fish', true);
    expectVerdict(body('fish'), G, 'fish', true);
  });
  it('GoogleOnly_IndexHtmAllowsItsDirectory exactly', () => {
    const rules = 'User-agent: *\nDisallow: /shop/\nAllow: /shop/index.html\n';
    expectVerdict(rules, G, '/shop/', true);
    expectVerdict(rules, G, '/shop/index.html', true);
    expectVerdict(rules, G, '/shop/x', false);
    expectVerdict(rules, G, '/shop/?q', false);
    expectVerdict('User-agent: *\nDisallow: /\nAllow: /index.htm\n', G, '/', true);
    expectVerdict('User-agent: *\nDisallow: /\nAllow: /a/index.htmx\n', G, '/a/', true);
    expectVerdict('User-agent: *\nDisallow: /\nAllow: /a/Index.html\n', G, '/a/', false);
    expectVerdict(rules, G, '/shop/', false, { mode: 'rfc' });
    expectDecidingLine(rules, G, '/shop/', 3);
    expect(parseRobots(rules).matcher(G).explain('/shop/').rule).toEqual({ kind: 'allow', line: 3, pattern: '/shop/index.html', priority: 7, indexHtmRule: true });
    // jsonl shows the same: the line's own pattern, flagged (the priority is the `/shop/$` rule's)
    expect(new TextDecoder().decode(parseRobots(rules).matcher(G).checkLinesJsonl(new TextEncoder().encode('/shop/\n')).output)).toBe('{"input":1,"url":"/shop/","verdict":"allowed","rule":{"kind":"allow","line":3,"pattern":"/shop/index.html","indexHtmRule":true}}\n');
  });
  it('ID_PolynomialWorstCase: hostile patterns stay fast (see hostile.test.ts for the big ones)', () => {
    expectVerdict(body('/*a*a*a*a*a*b'), G, '/' + 'a'.repeat(200), true);
    expectVerdict(body('/*a*a*a*a*a*b'), G, '/' + 'a'.repeat(200) + 'b', false);
  });
});

describe('8. the decision', () => {
  it('ID_PriorityIsPatternByteLength including * and $', () => {
    expectVerdict('User-agent: *\nDisallow: /page\nAllow: /*****\n', G, '/page', true);
    expectVerdict('User-agent: *\nDisallow: /page\nAllow: /****\n', G, '/page', true); // tie -> allow
    expectVerdict('User-agent: *\nDisallow: /page\nAllow: /***\n', G, '/page', false);
    expectVerdict(bytes('User-agent: *\nDisallow: /é\nAllow: /%C3\n'), G, '/%C3%A9', false);
  });
  it('ID_LongestMatchWins, ties go to allow', () => {
    expectVerdict('User-agent: *\nAllow: /a\nDisallow: /a\n', G, '/a', true);
    expectVerdict('User-agent: *\nDisallow: /a\nAllow: /a\n', G, '/a', true);
    expectVerdict('User-agent: *\nAllow: /a\nDisallow: /ab\n', G, '/abc', false);
    expectVerdict('User-agent: *\nAllow: /ab\nDisallow: /a\n', G, '/abc', true);
  });
  it('ID_DecidingRuleIsFirstOfEqualPriority', () => {
    expectDecidingLine('User-agent: *\nDisallow: /a*\nDisallow: /*b\nDisallow: /ab\n', G, '/ab', 2);
    expectDecidingLine('User-agent: *\nDisallow: /a\nDisallow: /a\n', G, '/a', 2);
  });
  it('ID_SpecificGroupWithOnlyEmptyRulesAllows even when * disallows', () => {
    expectVerdict('User-agent: *\nDisallow: /\nUser-agent: Googlebot\nAllow:\n', G, '/x', true);
  });
  it('GoogleOnly_RobotsTxtNotSpecial: Disallow: / disallows /robots.txt; rfc mode allows it', () => {
    expectVerdict('User-agent: *\nDisallow: /\n', G, 'https://e.com/robots.txt', false);
    expectVerdict('User-agent: *\nDisallow: /\n', G, 'https://e.com/robots.txt', true, { mode: 'rfc' });
    expectVerdict('User-agent: *\nDisallow: /\n', G, 'https://e.com/robots.txt?x', false, { mode: 'rfc' });
    expectDecidingLine('User-agent: *\nAllow: *\nDisallow: /\n', G, '/robots.txt', null, { mode: 'rfc' });
  });
  it('ID_NothingToDecideAllows: empty body, no groups, no applicable group, nothing matched', () => {
    expectVerdict('', G, '/x', true);
    expectVerdict('# nothing\n\n', G, '/x', true);
    expectVerdict('User-agent: Bingbot\nDisallow: /\n', G, '/x', true);
    expectVerdict('User-agent: *\nDisallow: /y\n', G, '/x', true);
  });
});
