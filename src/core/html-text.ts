// Text put into an HTML page (the audit report, the conformance report): the one escaper.

/** Text made safe inside HTML elements and quoted attributes: & < > " ' as numeric references. Per text put in a page. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
