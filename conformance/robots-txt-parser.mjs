// Conformance adapter for robots-txt-parser (npm, ChrisAkroyd): the body is given with parseRobots for the
// case's origin (nothing is fetched), then canCrawlSync answers for the agent.
import robotsTxtParser from 'robots-txt-parser';

export default function isAllowed(robotsText, agent, url) {
  const robots = robotsTxtParser({ userAgent: agent, allowOnNeutral: true });
  robots.parseRobots(new URL(url).origin, robotsText);
  return robots.canCrawlSync(url);
}
