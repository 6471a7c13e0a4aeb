import type { ReactNode } from 'react';

/** A small Markdown renderer for parse output: headings, paragraphs, pipe tables, lists, images as captions. */
export function MarkdownView({ text }: { text: string }) {
  const blocks = text.replace(/\r\n/g, '\n').split(/\n{2,}/);
  return <div className="markdown">{blocks.map((b, i) => renderBlock(b.trim(), i))}</div>;
}

function renderBlock(block: string, key: number): ReactNode {
  if (!block) return null;
  const heading = /^(#{1,6})\s+(.*)$/s.exec(block);
  if (heading) {
    const level = heading[1]!.length;
    const Tag = `h${Math.min(6, level + 1)}` as 'h2';
    return <Tag key={key}>{heading[2]}</Tag>;
  }
  const lines = block.split('\n');
  if (lines.length >= 2 && lines.every((l) => l.trim().startsWith('|'))) {
    const rows = lines.filter((l) => !/^\|\s*:?-{3,}/.test(l.trim())).map(splitRow);
    return (
      <table key={key}>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>{r.map((c, j) => (i === 0 ? <th key={j}>{c}</th> : <td key={j}>{c}</td>))}</tr>
          ))}
        </tbody>
      </table>
    );
  }
  if (lines.every((l) => /^\s*([-*+]|\d+\.)\s+/.test(l))) {
    return (
      <ul key={key}>
        {lines.map((l, i) => (
          <li key={i}>{l.replace(/^\s*([-*+]|\d+\.)\s+/, '')}</li>
        ))}
      </ul>
    );
  }
  const img = /^!\[(.*)\]\(.*\)$/.exec(block);
  if (img) return <figure key={key}>{img[1]}</figure>;
  return <p key={key}>{block}</p>;
}

function splitRow(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, '|'));
}
