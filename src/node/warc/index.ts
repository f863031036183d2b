// The door of src/node/warc/: WARC files read record by record, bounded and never silent (plain or gzip member
// by member), for robotstxt pages and whatever else reads crawl archives.
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export { readWarc, MAX_WARC_HEADER_BYTES, MAX_HTTP_HEADER_BYTES, type WarcItem, type WarcRecordRead, type WarcReadOptions } from './warc-reader.js';
