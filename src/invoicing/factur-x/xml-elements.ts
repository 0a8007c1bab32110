/**
 * Just enough XML to write a document whose shape the code fixes: an element holds either text, escaped
 * here, or elements already written. An absent child (undefined, false) is left out, so that an
 * optional element reads `condition && leaf(...)`.
 */

type Attributes = Readonly<Record<string, string>>;
export type Child = string | undefined | false;

// The characters XML 1.0 cannot hold at all, even escaped: a name pasted with one still writes a document.
// eslint-disable-next-line no-control-regex
const notXml = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export const escapeXml = (text: string): string =>
  text.replace(notXml, '').replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char] ?? char);

const openTag = (name: string, attributes: Attributes): string =>
  [name, ...Object.entries(attributes).map(([key, value]) => `${key}="${escapeXml(value)}"`)].join(' ');

/** An element holding text. */
export const leaf = (name: string, text: string, attributes: Attributes = {}): string => `<${openTag(name, attributes)}>${escapeXml(text)}</${name}>`;

/** An element holding elements, one a line. */
export const branch = (name: string, children: readonly Child[], attributes: Attributes = {}): string =>
  [`<${openTag(name, attributes)}>`, ...children.filter((child): child is string => typeof child === 'string' && child !== ''), `</${name}>`].join('\n');
