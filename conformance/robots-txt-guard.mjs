// Conformance adapter for robots-txt-guard with robots-txt-parse (npm, Woorank): the body is parsed by the
// streaming parser, the guard answers for the URL's path (and query, as a crawler would pass it).
import { Readable } from 'node:stream';
import parse from 'robots-txt-parse';
import guard from 'robots-txt-guard';

export default async function isAllowed(robotsText, agent, url) {
  const parsed = await parse(Readable.from([robotsText]));
  const { pathname, search } = new URL(url);
  return guard(parsed).isAllowed(agent, pathname + search);
}
