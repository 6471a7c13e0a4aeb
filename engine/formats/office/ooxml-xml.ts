import { XMLParser } from 'fast-xml-parser';
import { DocError } from '../../core/errors.js';

/** A node of fast-xml-parser's ordered output: `{ tag: XNode[], ':@'?: attrs }` or `{ '#text': string }`. */
export type XNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: false,
});

/** Parse one OOXML part. Parts with a DTD are refused: OOXML never uses one, and entities can be bombs. */
export function parseXml(text: string, label: string): XNode[] {
  if (/<!DOCTYPE|<!ENTITY/i.test(text.slice(0, 4096))) throw new DocError('INVALID_DOCUMENT', `${label} carries a DTD, which Office files never do; refused`);
  try {
    return parser.parse(text) as XNode[];
  } catch (err) {
    throw new DocError('INVALID_DOCUMENT', `${label} is not well-formed XML (${(err as Error).message})`);
  }
}

/** Tag name without its namespace prefix; null for text nodes. */
export function localName(n: XNode): string | null {
  for (const k of Object.keys(n)) {
    if (k === ':@' || k === '#text') continue;
    const i = k.indexOf(':');
    return i >= 0 ? k.slice(i + 1) : k;
  }
  return null;
}

export function children(n: XNode): XNode[] {
  for (const k of Object.keys(n)) {
    if (k === ':@' || k === '#text') continue;
    const v = n[k];
    return Array.isArray(v) ? (v as XNode[]) : [];
  }
  return [];
}

/** An attribute by local name (w:val and val both match 'val'). */
export function attr(n: XNode, name: string): string | undefined {
  const attrs = n[':@'] as Record<string, unknown> | undefined;
  if (!attrs) return undefined;
  if (name in attrs) return String(attrs[name]);
  for (const [k, v] of Object.entries(attrs)) {
    const i = k.indexOf(':');
    if (i >= 0 && k.slice(i + 1) === name) return String(v);
  }
  return undefined;
}

/** The relationship id of an element (`r:id`, whatever the prefix), never its plain `id`. */
export function relId(n: XNode): string | undefined {
  const attrs = n[':@'] as Record<string, unknown> | undefined;
  if (!attrs) return undefined;
  for (const [k, v] of Object.entries(attrs)) if (/^[^:]+:id$/.test(k)) return String(v);
  return undefined;
}

export function textNode(n: XNode): string | null {
  const t = n['#text'];
  return t === undefined ? null : String(t);
}

export function child(n: XNode, name: string): XNode | undefined {
  return children(n).find((c) => localName(c) === name);
}

export function childrenNamed(n: XNode, name: string): XNode[] {
  return children(n).filter((c) => localName(c) === name);
}

/** Follow a path of local names from `n`. */
export function path(n: XNode | undefined, ...names: string[]): XNode | undefined {
  let cur = n;
  for (const name of names) {
    if (!cur) return undefined;
    cur = child(cur, name);
  }
  return cur;
}

/** The first element among the top-level nodes with this local name. */
export function root(nodes: XNode[], name: string): XNode | undefined {
  return nodes.find((n) => localName(n) === name);
}

/** Every descendant element with this local name, in document order. */
export function descendants(n: XNode, name: string, out: XNode[] = []): XNode[] {
  for (const c of children(n)) {
    if (localName(c) === name) out.push(c);
    descendants(c, name, out);
  }
  return out;
}

/** All text under `n` (concatenated text nodes of the named text elements). */
export function textUnder(n: XNode, textTag = 't'): string {
  let s = '';
  for (const t of descendants(n, textTag)) for (const c of children(t)) s += textNode(c) ?? '';
  return s;
}

/** Relationship id -> target path (resolved against the part's folder) from a .rels part. */
export function parseRels(xml: string | null, baseDir: string, label: string): Map<string, string> {
  const map = new Map<string, string>();
  if (!xml) return map;
  const rels = root(parseXml(xml, label), 'Relationships');
  if (!rels) return map;
  for (const r of childrenNamed(rels, 'Relationship')) {
    const id = attr(r, 'Id');
    const target = attr(r, 'Target');
    if (!id || !target || attr(r, 'TargetMode') === 'External') continue;
    map.set(id, resolvePart(baseDir, target));
  }
  return map;
}

export function resolvePart(baseDir: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = (baseDir ? baseDir.split('/') : []).concat(target.split('/'));
  const out: string[] = [];
  for (const p of parts) {
    if (p === '..') out.pop();
    else if (p && p !== '.') out.push(p);
  }
  return out.join('/');
}
