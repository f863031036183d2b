// Conformance adapter for robots-parser (npm; the parser Crawlee uses): parses the body for each case, as a
// crawler would once per host, and asks isAllowed. Run: robotstxt conformance --module conformance/robots-parser.mjs
import robotsParser from 'robots-parser';

export default function isAllowed(robotsText, agent, url) {
  // isAllowed answers undefined for a URL of another origin: the robots.txt URL is the case URL's own
  return robotsParser(new URL('/robots.txt', url).href, robotsText).isAllowed(url, agent) !== false;
}
