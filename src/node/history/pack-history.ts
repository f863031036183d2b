// A pack's captures as a history (audit --pack of an origin captured several times): each origin's captures are
// its versions, so requests are judged by the version in force then, as a store's are.
import type { RobotsPack } from '../../core/pack/index.js';
import type { UrlOrigin } from '../../core/url-model.js';
import { FULL_VERDICT_BODY } from '../hosts/index.js';
import { packOriginOf } from '../pack/index.js';
import { CapturedHistory, type HistoryOptions, type OriginCapture } from './history.js';

/**
 * A pack whose origins were captured several times as a history (audit --pack): each origin's captures its
 * versions (CapturedHistory: the same body captured again is the version seen again), so that requests are
 * judged by the version in force then and those within 24 hours of a change are counted as a store's are;
 * noEntry is told of an origin the pack has none of (it may throw). Once per run.
 */
export function packHistory(pack: RobotsPack, options: HistoryOptions & { noEntry?: (origin: UrlOrigin) => void }): CapturedHistory {
  return new CapturedHistory((origin) => {
    const index = packOriginOf(pack, origin);
    if (index < 0) {
      options.noEntry?.(origin);
      return [];
    }
    return pack.captures(index).map((capture): OriginCapture => {
      if (capture.effect === 'rules' && capture.body !== null) {
        const body = capture.body;
        return { time: capture.time, same: `body ${body}`, body: () => pack.body(body) };
      }
      const effect = capture.effect === 'disallow-all' ? 'disallow' : 'allow';
      return { time: capture.time, same: effect, body: () => FULL_VERDICT_BODY[effect] };
    });
  }, options);
}
