// The built-in conformance suite: questions (robots.txt body, user agent, URL) written by this project from
// the reference's measured behaviour, one or more per behaviour of its parser and matcher, each labelled
// like the reference's own tests: `ID_*` cases follow RFC 9309 (every conforming implementation should
// agree), `GoogleOnly_*` cases are where Google's library departs from or goes beyond it. Each case says the
// verdict the reference gives; test/conformance.test.ts asserts that this package's engine gives every one.
// Runtime-neutral data: no Node imports.

/** A class of behaviour: the report groups cases, and differences, by it. */
export type ConformanceClass =
  | 'line endings'
  | 'BOM'
  | 'comments and whitespace'
  | 'keys and separators'
  | 'typos'
  | 'user-agent matching'
  | 'groups'
  | 'URL to path'
  | 'percent-encoding'
  | 'wildcards'
  | 'end anchor ($)'
  | 'longest match'
  | 'empty values'
  | 'index.html'
  | 'robots.txt itself'
  | 'long lines'
  | 'large files'
  | 'corpus';

/** Standard (RFC 9309: `ID_`), Google's own behaviour (`GoogleOnly_`), or generated from a real file (`Corpus_`). */
export type ConformanceLabel = 'standard' | 'google' | 'corpus';

/** One question with the reference's answer. Bodies are bytes (a string is UTF-8 encoded). */
export interface ConformanceCase {
  /** `ID_<name>` or `GoogleOnly_<name>`, unique. */
  id: string;
  class: ConformanceClass;
  label: ConformanceLabel;
  body: string | Uint8Array;
  agent: string;
  url: string;
  /** The reference's verdict (robots_main, whole file) as the suite states it; generated cases have none. */
  expected?: 'allowed' | 'disallowed';
}

/** Bytes from a string whose characters are all bytes (0-255), for bodies that are not UTF-8. */
const bytes = (latin1: string): Uint8Array => Uint8Array.from(latin1, (char) => char.charCodeAt(0));

const H = 'https://example.com';
type Row = [id: string, cls: ConformanceClass, body: string | Uint8Array, agent: string, path: string, expected: 'allowed' | 'disallowed'];

/** A body of `size` bytes of comment lines, then `tail`. */
function padded(size: number, tail: string): string {
  const line = '# ' + 'x'.repeat(97) + '\n'; // 100 bytes
  return 'User-agent: *\n' + line.repeat(Math.ceil(size / line.length)) + tail;
}

const LONG_A = 'a'.repeat(20_000);

const rows: Row[] = [
  // line endings
  ['ID_LineEndings_LF', 'line endings', 'User-agent: *\nDisallow: /a\n', 'FooBot', '/a', 'disallowed'],
  ['ID_LineEndings_CRLF', 'line endings', 'User-agent: *\r\nDisallow: /a\r\n', 'FooBot', '/a', 'disallowed'],
  ['ID_LineEndings_CR', 'line endings', 'User-agent: *\rDisallow: /a\r', 'FooBot', '/a', 'disallowed'],
  ['ID_LineEndings_Mixed', 'line endings', 'User-agent: *\r\nDisallow: /a\rDisallow: /b\nAllow: /b/c', 'FooBot', '/b/d', 'disallowed'],
  ['ID_LineEndings_CRLFNotInValue', 'line endings', 'User-agent: *\r\nDisallow: /a\r\nAllow: /a/b\r\n', 'FooBot', '/a/b', 'allowed'],
  ['ID_LineEndings_LastLineWithoutEnd', 'line endings', 'User-agent: *\nDisallow: /last', 'FooBot', '/last', 'disallowed'],
  ['GoogleOnly_LineEndings_NulEndsLine', 'line endings', 'User-agent: *\nDisallow: /a\0bc\n', 'FooBot', '/ax', 'disallowed'],
  // BOM
  ['GoogleOnly_BOM_Skipped', 'BOM', '\uFEFFUser-agent: *\nDisallow: /a\n', 'FooBot', '/a', 'disallowed'],
  ['GoogleOnly_BOM_PartialSkipped', 'BOM', bytes('\xEF\xBBUser-agent: *\nDisallow: /a\n'), 'FooBot', '/a', 'disallowed'],
  ['GoogleOnly_BOM_FirstByteOnly', 'BOM', bytes('\xEFUser-agent: *\nDisallow: /a\n'), 'FooBot', '/a', 'disallowed'],
  ['GoogleOnly_BOM_SecondIsData', 'BOM', '\uFEFF\uFEFFUser-agent: *\nDisallow: /a\n', 'FooBot', '/a', 'allowed'],
  ['GoogleOnly_BOM_NotAtStartIsData', 'BOM', 'User-agent: *\nDisallow: /a\n\uFEFFDisallow: /b\n', 'FooBot', '/b', 'allowed'],
  // comments and whitespace
  ['ID_Comments_WholeLine', 'comments and whitespace', '# Disallow: /a\nUser-agent: *\nDisallow: /b\n', 'FooBot', '/a', 'allowed'],
  ['ID_Comments_AfterValue', 'comments and whitespace', 'User-agent: *\nDisallow: /a#b\n', 'FooBot', '/a', 'disallowed'],
  ['ID_Comments_HashCutsPattern', 'comments and whitespace', 'User-agent: *\nDisallow: /page#section\n', 'FooBot', '/pages', 'disallowed'],
  ['ID_Whitespace_AroundKeyAndValue', 'comments and whitespace', ' \tUser-agent : * \n\t Disallow :\t/a \t\n', 'FooBot', '/a', 'disallowed'],
  ['ID_Whitespace_InnerSpaceKept', 'comments and whitespace', 'User-agent: *\nDisallow: /a b\n', 'FooBot', '/a', 'allowed'],
  ['ID_Whitespace_BlankLineKeepsGroup', 'comments and whitespace', 'User-agent: FooBot\n\nDisallow: /a\n', 'FooBot', '/a', 'disallowed'],
  // keys and separators
  ['ID_Keys_CaseInsensitive', 'keys and separators', 'USER-AGENT: *\nDISALLOW: /a\n', 'FooBot', '/a', 'disallowed'],
  ['ID_Keys_ColonInValue', 'keys and separators', 'User-agent: *\nDisallow: /a:b\n', 'FooBot', '/a:b', 'disallowed'],
  ['GoogleOnly_Keys_PrefixMatch', 'keys and separators', 'User-agents: *\nDisallowed: /a\n', 'FooBot', '/a', 'disallowed'],
  ['GoogleOnly_Keys_NoColonTwoTokens', 'keys and separators', 'User-agent *\nDisallow /a\n', 'FooBot', '/a', 'disallowed'],
  ['GoogleOnly_Keys_NoColonThreeTokensIgnored', 'keys and separators', 'User-agent: *\nDisallow /a b\n', 'FooBot', '/a', 'allowed'],
  ['GoogleOnly_Keys_SpaceBeforeColonJoinsKey', 'keys and separators', 'User-agent: *\nDisallow /page:*\n', 'FooBot', '/other', 'disallowed'],
  ['ID_Keys_UnknownKeyIgnored', 'keys and separators', 'User-agent: *\nCrawl-delay: 10\nNoindex: /a\nDisallow: /b\n', 'FooBot', '/a', 'allowed'],
  ['ID_Keys_UnderscoreAgentUnknown', 'keys and separators', 'User_agent: FooBot\nDisallow: /a\n', 'FooBot', '/a', 'allowed'],
  // typos
  ['GoogleOnly_Typos_Useragent', 'typos', 'Useragent: FooBot\nDisallow: /a\n', 'FooBot', '/a', 'disallowed'],
  ['GoogleOnly_Typos_UserSpaceAgent', 'typos', 'User agent: FooBot\nDisallow: /a\n', 'FooBot', '/a', 'disallowed'],
  ['GoogleOnly_Typos_Dissallow', 'typos', 'User-agent: *\nDissallow: /a\n', 'FooBot', '/a', 'disallowed'],
  ['GoogleOnly_Typos_Dissalow', 'typos', 'User-agent: *\nDissalow: /a\n', 'FooBot', '/a', 'disallowed'],
  ['GoogleOnly_Typos_Disalow', 'typos', 'User-agent: *\nDisalow: /a\n', 'FooBot', '/a', 'disallowed'],
  ['GoogleOnly_Typos_Diasllow', 'typos', 'User-agent: *\nDiasllow: /a\n', 'FooBot', '/a', 'disallowed'],
  ['GoogleOnly_Typos_Disallaw', 'typos', 'User-agent: *\nDisallaw: /a\n', 'FooBot', '/a', 'disallowed'],
  ['ID_Typos_OtherMisspellingIgnored', 'typos', 'User-agent: *\nDisalllow: /a\n', 'FooBot', '/a', 'allowed'],
  // user-agent matching
  ['ID_UserAgent_CaseInsensitive', 'user-agent matching', 'User-agent: foobot\nDisallow: /a\n', 'FooBot', '/a', 'disallowed'],
  ['ID_UserAgent_SpecificBeatsGlobal', 'user-agent matching', 'User-agent: *\nDisallow: /\n\nUser-agent: FooBot\nAllow: /\n', 'FooBot', '/a', 'allowed'],
  ['ID_UserAgent_GlobalForOthers', 'user-agent matching', 'User-agent: *\nDisallow: /\n\nUser-agent: FooBot\nAllow: /\n', 'BarBot', '/a', 'disallowed'],
  ['ID_UserAgent_NoPrefixMatch', 'user-agent matching', 'User-agent: FooBot\nDisallow: /a\n', 'FooBot-News', '/a', 'allowed'],
  ['ID_UserAgent_GroupNotAppliedToLongerName', 'user-agent matching', 'User-agent: Foo\nDisallow: /a\n', 'FooBot', '/a', 'allowed'],
  ['GoogleOnly_UserAgent_ProductTokenOfValue', 'user-agent matching', 'User-agent: FooBot/2.1\nDisallow: /a\n', 'FooBot', '/a', 'disallowed'],
  ['GoogleOnly_UserAgent_TokenStopsAtSpace', 'user-agent matching', 'User-agent: FooBot Images\nDisallow: /a\n', 'FooBot', '/a', 'disallowed'],
  ['GoogleOnly_UserAgent_TokenStopsAtComma', 'user-agent matching', 'User-agent: FooBot,BarBot\nDisallow: /a\n', 'BarBot', '/a', 'allowed'],
  ['GoogleOnly_UserAgent_TokenStopsAtDigit', 'user-agent matching', 'User-agent: Bot2\nDisallow: /a\n', 'Bot', '/a', 'disallowed'],
  ['GoogleOnly_UserAgent_StarWithTextIsGlobal', 'user-agent matching', 'User-agent: * foo\nDisallow: /a\n', 'FooBot', '/a', 'disallowed'],
  ['ID_UserAgent_StarPrefixNotGlobal', 'user-agent matching', 'User-agent: *bot\nDisallow: /a\n', 'FooBot', '/a', 'allowed'],
  ['GoogleOnly_UserAgent_QueryWithVersionMatchesNothingSpecific', 'user-agent matching', 'User-agent: FooBot\nDisallow: /a\n', 'FooBot/2.1', '/a', 'allowed'],
  ['GoogleOnly_UserAgent_FullUserAgentStringMatchesNoGroup', 'user-agent matching', 'User-agent: FooBot\nDisallow: /a\n', 'Mozilla/5.0 (compatible; FooBot/2.1)', '/a', 'allowed'],
  ['GoogleOnly_UserAgent_FullUserAgentStringGetsGlobal', 'user-agent matching', 'User-agent: FooBot\nAllow: /\n\nUser-agent: *\nDisallow: /\n', 'Mozilla/5.0 (compatible; FooBot/2.1)', '/a', 'disallowed'],
  // groups
  ['ID_Groups_SameAgentMerged', 'groups', 'User-agent: FooBot\nDisallow: /a\n\nUser-agent: BarBot\nDisallow: /b\n\nUser-agent: FooBot\nDisallow: /c\n', 'FooBot', '/c', 'disallowed'],
  ['ID_Groups_GlobalGroupsMerged', 'groups', 'User-agent: *\nDisallow: /a\n\nUser-agent: BarBot\nDisallow: /b\n\nUser-agent: *\nDisallow: /c\n', 'FooBot', '/c', 'disallowed'],
  ['ID_Groups_SeveralAgentsOneGroup', 'groups', 'User-agent: BarBot\nUser-agent: FooBot\nDisallow: /a\n', 'FooBot', '/a', 'disallowed'],
  ['ID_Groups_NamedAgentIgnoresGlobal', 'groups', 'User-agent: *\nDisallow: /a\n\nUser-agent: FooBot\nDisallow: /b\n', 'FooBot', '/a', 'allowed'],
  ['ID_Groups_NamedWithoutRulesIgnoresGlobal', 'groups', 'User-agent: *\nDisallow: /a\n\nUser-agent: FooBot\n', 'FooBot', '/a', 'allowed'],
  ['ID_Groups_RulesBeforeFirstAgentIgnored', 'groups', 'Disallow: /a\nUser-agent: *\nDisallow: /b\n', 'FooBot', '/a', 'allowed'],
  ['ID_Groups_SitemapDoesNotEndGroup', 'groups', 'User-agent: FooBot\nSitemap: https://example.com/s.xml\nDisallow: /a\n', 'FooBot', '/a', 'disallowed'],
  ['ID_Groups_UnknownKeyDoesNotEndGroup', 'groups', 'User-agent: FooBot\nCrawl-delay: 5\nDisallow: /a\n', 'FooBot', '/a', 'disallowed'],
  ['ID_Groups_AgentAfterRuleStartsGroup', 'groups', 'User-agent: BarBot\nDisallow: /a\nUser-agent: FooBot\nDisallow: /b\n', 'FooBot', '/a', 'allowed'],
  ['ID_Groups_StarAndAgentIsAgentsOwn', 'groups', 'User-agent: *\nUser-agent: FooBot\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n', 'FooBot', '/b', 'allowed'],
  // what other parsers are known to do differently (issue 48): blank lines, invalid agent lines, a new agent after rules
  ['ID_Groups_BlankLineBetweenAgentsKeepsOneGroup', 'groups', 'User-agent: FooBot\n\nUser-agent: BarBot\nDisallow: /a\n', 'FooBot', '/a', 'disallowed'],
  ['ID_Groups_BlankLineBetweenRulesKeepsGroup', 'groups', 'User-agent: FooBot\nDisallow: /a\n\nDisallow: /b\n', 'FooBot', '/b', 'disallowed'],
  ['GoogleOnly_Groups_EmptyAgentLineKeepsGroupOpen', 'groups', 'User-agent: FooBot\nUser-agent:\nDisallow: /a\n', 'FooBot', '/a', 'disallowed'],
  ['GoogleOnly_Groups_InvalidAgentTokenKeepsGroupOpen', 'groups', 'User-agent: FooBot\nUser-agent: (bot)\nDisallow: /a\n', 'FooBot', '/a', 'disallowed'],
  ['ID_Groups_AgentAfterRulesStartsNewGroupForBoth', 'groups', 'User-agent: BarBot\nDisallow: /a\nUser-agent: FooBot\nDisallow: /b\n', 'BarBot', '/b', 'allowed'],
  // URL to path
  ['ID_Path_QueryMatched', 'URL to path', 'User-agent: *\nDisallow: /a?b\n', 'FooBot', '/a?b=1', 'disallowed'],
  ['ID_Path_FragmentDropped', 'URL to path', 'User-agent: *\nDisallow: /*frag\n', 'FooBot', '/a#frag', 'allowed'],
  ['ID_Path_ParamsKept', 'URL to path', 'User-agent: *\nDisallow: /a;jsessionid\n', 'FooBot', '/a;jsessionid=1', 'disallowed'],
  ['ID_Path_EmptyPathIsSlash', 'URL to path', 'User-agent: *\nDisallow: /\n', 'FooBot', '', 'disallowed'],
  ['ID_Path_QueryWithoutPath', 'URL to path', 'User-agent: *\nDisallow: /?a\n', 'FooBot', '?a=1', 'disallowed'],
  ['ID_Path_CaseSensitive', 'URL to path', 'User-agent: *\nDisallow: /Private\n', 'FooBot', '/private', 'allowed'],
  ['GoogleOnly_Path_DotSegmentsKept', 'URL to path', 'User-agent: *\nDisallow: /a/\n', 'FooBot', '/b/../a/x', 'allowed'],
  ['GoogleOnly_Path_DoubleSlashKept', 'URL to path', 'User-agent: *\nDisallow: /a/b\n', 'FooBot', '//a/b', 'allowed'],
  ['ID_Path_UserinfoAndPortSkipped', 'URL to path', 'User-agent: *\nDisallow: /p\n', 'FooBot', 'USERINFO', 'disallowed'],
  // percent-encoding
  ['ID_Percent_PatternUtf8Encoded', 'percent-encoding', 'User-agent: *\nDisallow: /caf\u00e9\n', 'FooBot', '/caf%C3%A9', 'disallowed'],
  ['ID_Percent_LowercaseEscapeInPattern', 'percent-encoding', 'User-agent: *\nDisallow: /a%2fb\n', 'FooBot', '/a%2Fb', 'disallowed'],
  ['GoogleOnly_Percent_RawUtf8UrlNotEncoded', 'percent-encoding', 'User-agent: *\nDisallow: /caf\u00e9\n', 'FooBot', '/caf\u00e9', 'allowed'],
  ['GoogleOnly_Percent_LowercaseEscapeInUrl', 'percent-encoding', 'User-agent: *\nDisallow: /caf\u00e9\n', 'FooBot', '/caf%c3%a9', 'allowed'],
  ['GoogleOnly_Percent_UnreservedEscapeNotDecoded', 'percent-encoding', 'User-agent: *\nDisallow: /%7Euser\n', 'FooBot', '/~user', 'allowed'],
  ['GoogleOnly_Percent_UnreservedInUrlNotDecoded', 'percent-encoding', 'User-agent: *\nDisallow: /~user\n', 'FooBot', '/%7Euser', 'allowed'],
  ['GoogleOnly_Percent_Latin1ByteEncoded', 'percent-encoding', bytes('User-agent: *\nDisallow: /caf\xE9\n'), 'FooBot', '/caf%E9', 'disallowed'],
  ['ID_Percent_InvalidEscapeKept', 'percent-encoding', 'User-agent: *\nDisallow: /a%zz\n', 'FooBot', '/a%zz', 'disallowed'],
  ['ID_Percent_QueryEscapeMatchesSame', 'percent-encoding', 'User-agent: *\nDisallow: /s?q=%20x\n', 'FooBot', '/s?q=%20x', 'disallowed'],
  ['GoogleOnly_Percent_QuerySpaceNotEncoded', 'percent-encoding', 'User-agent: *\nDisallow: /s?q=%20x\n', 'FooBot', '/s?q= x', 'allowed'],
  ['ID_Percent_QueryPatternUtf8Encoded', 'percent-encoding', 'User-agent: *\nDisallow: /s?q=caf\u00e9\n', 'FooBot', '/s?q=caf%C3%A9', 'disallowed'],
  ['ID_Percent_QueryEncodedSlashNotDecoded', 'percent-encoding', 'User-agent: *\nDisallow: /s?u=/x\n', 'FooBot', '/s?u=%2Fx', 'allowed'],
  // wildcards
  ['ID_Wildcard_Middle', 'wildcards', 'User-agent: *\nDisallow: /a*c\n', 'FooBot', '/abbbc', 'disallowed'],
  ['ID_Wildcard_MatchesSlashAndQuery', 'wildcards', 'User-agent: *\nDisallow: /*private\n', 'FooBot', '/x/y?q=private', 'disallowed'],
  ['ID_Wildcard_Empty', 'wildcards', 'User-agent: *\nDisallow: /a*\n', 'FooBot', '/a', 'disallowed'],
  ['ID_Wildcard_Leading', 'wildcards', 'User-agent: *\nDisallow: *.pdf\n', 'FooBot', '/doc.pdf', 'disallowed'],
  ['ID_Wildcard_Consecutive', 'wildcards', 'User-agent: *\nDisallow: /a**b\n', 'FooBot', '/axxb', 'disallowed'],
  ['ID_Wildcard_QuestionMarkLiteral', 'wildcards', 'User-agent: *\nDisallow: /a?c\n', 'FooBot', '/abc', 'allowed'],
  ['ID_Wildcard_DotLiteral', 'wildcards', 'User-agent: *\nDisallow: /a.c\n', 'FooBot', '/abc', 'allowed'],
  ['ID_Wildcard_PatternWithoutSlashNeverMatches', 'wildcards', 'User-agent: *\nDisallow: a\n', 'FooBot', '/a', 'allowed'],
  ['ID_Wildcard_Backtracking', 'wildcards', 'User-agent: *\nDisallow: /*a*a*a*b\n', 'FooBot', '/' + 'a'.repeat(40) + 'b', 'disallowed'],
  ['ID_Wildcard_StarMatchesNothingAtEnd', 'wildcards', 'User-agent: *\nDisallow: /private*\n', 'FooBot', '/private', 'disallowed'],
  // end anchor
  ['ID_Dollar_EndOfPath', 'end anchor ($)', 'User-agent: *\nDisallow: /*.pdf$\n', 'FooBot', '/a.pdf', 'disallowed'],
  ['ID_Dollar_NotEndOfPath', 'end anchor ($)', 'User-agent: *\nDisallow: /*.pdf$\n', 'FooBot', '/a.pdfx', 'allowed'],
  ['ID_Dollar_QueryIsPartOfPath', 'end anchor ($)', 'User-agent: *\nDisallow: /a$\n', 'FooBot', '/a?x=1', 'allowed'],
  ['ID_Dollar_InMiddleIsLiteral', 'end anchor ($)', 'User-agent: *\nDisallow: /a$b\n', 'FooBot', '/a$b', 'disallowed'],
  ['ID_Dollar_OnlyDollar', 'end anchor ($)', 'User-agent: *\nDisallow: /$\n', 'FooBot', '/a', 'allowed'],
  ['ID_Dollar_AllowRootOnly', 'end anchor ($)', 'User-agent: *\nDisallow: /\nAllow: /$\n', 'FooBot', '/', 'allowed'],
  ['ID_Dollar_WithStarBefore', 'end anchor ($)', 'User-agent: *\nDisallow: /*$\n', 'FooBot', '/anything', 'disallowed'],
  // longest match
  ['ID_Longest_AllowLonger', 'longest match', 'User-agent: *\nDisallow: /a\nAllow: /a/b\n', 'FooBot', '/a/b/c', 'allowed'],
  ['ID_Longest_DisallowLonger', 'longest match', 'User-agent: *\nAllow: /a\nDisallow: /a/b\n', 'FooBot', '/a/b/c', 'disallowed'],
  ['ID_Longest_TieGoesToAllow', 'longest match', 'User-agent: *\nDisallow: /a\nAllow: /a\n', 'FooBot', '/a', 'allowed'],
  ['ID_Longest_TieGoesToAllowWhateverTheOrder', 'longest match', 'User-agent: *\nAllow: /a\nDisallow: /a\n', 'FooBot', '/a', 'allowed'],
  ['ID_Longest_TieOfWildcardPatternsGoesToAllow', 'longest match', 'User-agent: *\nDisallow: /*.php\nAllow: /a*.php\n', 'FooBot', '/ab.php', 'allowed'],
  ['ID_Longest_OrderDoesNotMatter', 'longest match', 'User-agent: *\nAllow: /a/b\nDisallow: /a\n', 'FooBot', '/a/b', 'allowed'],
  ['GoogleOnly_Longest_PatternLengthNotMatchLength', 'longest match', 'User-agent: *\nDisallow: /page\nAllow: /*****\n', 'FooBot', '/page', 'allowed'],
  ['GoogleOnly_Longest_EncodedLengthCounts', 'longest match', 'User-agent: *\nAllow: /%C3\nDisallow: /\u00e9\n', 'FooBot', '/%C3%A9', 'disallowed'],
  ['ID_Longest_WildcardPatternLength', 'longest match', 'User-agent: *\nAllow: /*.html\nDisallow: /private/\n', 'FooBot', '/private/a.html', 'disallowed'],
  // empty values
  ['ID_Empty_DisallowNothing', 'empty values', 'User-agent: *\nDisallow:\n', 'FooBot', '/a', 'allowed'],
  ['ID_Empty_DisallowEmptyDoesNotBeatGlobal', 'empty values', 'User-agent: FooBot\nDisallow:\n\nUser-agent: *\nDisallow: /\n', 'FooBot', '/a', 'allowed'],
  ['ID_Empty_EmptyBody', 'empty values', '', 'FooBot', '/a', 'allowed'],
  ['ID_Empty_OnlyComments', 'empty values', '# nothing here\n', 'FooBot', '/a', 'allowed'],
  ['ID_Empty_AllowEmptyDoesNotOverride', 'empty values', 'User-agent: *\nAllow:\nDisallow: /a\n', 'FooBot', '/a', 'disallowed'],
  // index.html
  ['GoogleOnly_Index_AllowIndexHtmlAllowsDirectory', 'index.html', 'User-agent: *\nDisallow: /shop/\nAllow: /shop/index.html\n', 'FooBot', '/shop/', 'allowed'],
  ['GoogleOnly_Index_IndexHtmAlso', 'index.html', 'User-agent: *\nDisallow: /\nAllow: /index.htm\n', 'FooBot', '/', 'allowed'],
  ['ID_Index_OnlyTheDirectoryItself', 'index.html', 'User-agent: *\nDisallow: /shop/\nAllow: /shop/index.html\n', 'FooBot', '/shop/other', 'disallowed'],
  ['ID_Index_DisallowIndexHtmlNotExtended', 'index.html', 'User-agent: *\nDisallow: /shop/index.html\n', 'FooBot', '/shop/', 'allowed'],
  // robots.txt itself
  ['ID_RobotsTxt_LongerAllowWins', 'robots.txt itself', 'User-agent: *\nDisallow: /\nAllow: /robots.txt\n', 'FooBot', '/robots.txt', 'allowed'],
  ['GoogleOnly_RobotsTxt_NotImplicitlyAllowed', 'robots.txt itself', 'User-agent: *\nDisallow: /\n', 'FooBot', '/robots.txt', 'disallowed'],
  // long lines
  ['GoogleOnly_LongLine_RuleTruncated', 'long lines', `User-agent: *\nDisallow: /${LONG_A}\n`, 'FooBot', `/${'a'.repeat(16_700)}b`, 'disallowed'],
  ['GoogleOnly_LongLine_TruncatedAllowStillMatches', 'long lines', `User-agent: *\nDisallow: /\nAllow: /${LONG_A}\n`, 'FooBot', `/${'a'.repeat(16_700)}`, 'allowed'],
  ['ID_LongLine_ShortRulesAfterLongLine', 'long lines', `User-agent: *\n# ${LONG_A}\nDisallow: /b\n`, 'FooBot', '/b', 'disallowed'],
  // large files
  ['ID_LargeFile_RuleWithin500KiB', 'large files', padded(400_000, 'Disallow: /deep\n'), 'FooBot', '/deep', 'disallowed'],
  ['ID_LargeFile_AllowWithin500KiB', 'large files', padded(400_000, 'Disallow: /\nAllow: /deep\n'), 'FooBot', '/deep', 'allowed'],
  ['GoogleOnly_LargeFile_RuleAfter500KiBRead', 'large files', padded(600_000, 'Disallow: /deep\n'), 'FooBot', '/deep', 'disallowed'],
];

/** The built-in suite, in a stable order. Made once per call (bodies of the large-file cases are 0.4-0.6 MB). */
export function builtInSuite(): ConformanceCase[] {
  return rows.map(([id, cls, body, agent, path, expected]) => ({
    id,
    class: cls,
    label: id.startsWith('GoogleOnly_') ? 'google' : 'standard',
    body,
    agent,
    url: path === 'USERINFO' ? 'https://user:pass@example.com:8080/p?q#f' : `${H}${path}`,
    expected,
  }));
}
