// The meta tags of a page's <head>, read with parse5 (the WHATWG HTML parser: a tag the parser places in
// <body>, such as a meta after body content, is in the body, as browsers and Google read it). Only the first
// maxBytes of a page are read. Used by robotstxt page, once per page.
import { parse } from 'parse5';
import type { PageMeta } from '../../core/page-rules.js';

/** The most bytes of a page read for its head (a head longer than this is read up to it). */
export const DEFAULT_HEAD_BYTES = 1 << 20;

interface Node {
  nodeName: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
}

/** What a page's HTML holds of its rules: the meta tags of its head, and the robots-like meta tags the parser put in its body (ignored, and reported). */
export interface HtmlMetas {
  head: PageMeta[];
  /** Meta tags with a name and content outside <head> (a robots meta tag there is not read: Google's FAQ). */
  outsideHead: PageMeta[];
  /** True when the page was longer than the bytes read. */
  truncated: boolean;
}

/** The meta tags with a name and a content attribute, of a page's head and elsewhere. */
export function htmlMetas(html: string | Uint8Array, maxBytes = DEFAULT_HEAD_BYTES): HtmlMetas {
  const bytes = typeof html === 'string' ? new TextEncoder().encode(html) : html;
  const truncated = bytes.length > maxBytes;
  const text = new TextDecoder('utf-8').decode(truncated ? bytes.subarray(0, maxBytes) : bytes);
  const document = parse(text) as unknown as Node;
  const root = document.childNodes?.find((node) => node.nodeName === 'html');
  const head: PageMeta[] = [];
  const outsideHead: PageMeta[] = [];
  // in document order, without recursion: a page of 100,000 nested tags is as deep as its tree
  const pending: [Node, boolean][] = (root?.childNodes ?? []).map((child): [Node, boolean] => [child, child.nodeName === 'head']).reverse();
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, inHead] = next;
    if (node.nodeName === 'meta') {
      const name = node.attrs?.find((attr) => attr.name === 'name')?.value;
      const content = node.attrs?.find((attr) => attr.name === 'content')?.value;
      if (name !== undefined && content !== undefined) (inHead ? head : outsideHead).push({ name, content });
    }
    const children = node.childNodes ?? [];
    for (let i = children.length - 1; i >= 0; i--) pending.push([children[i], inHead || children[i].nodeName === 'head']);
  }
  return { head, outsideHead, truncated };
}
