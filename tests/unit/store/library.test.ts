import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { KeyRecord } from '../../../engine/api/context.js';
import type { ParseResult } from '../../../engine/core/results.js';
import { Library } from '../../../engine/store/library.js';
import { tokenizeForSearch } from '../../../engine/store/library-tokens.js';
import { prosePage } from '../chat/statement-pages.js';

const owner: KeyRecord = { id: 'owner', name: 'owner', balance: null, owner: true };
const alice: KeyRecord = { id: 'alice', name: 'alice', balance: 100, owner: false };
const bob: KeyRecord = { id: 'bob', name: 'bob', balance: 100, owner: false };

function library(): Library {
  const lib = new Library(new Database(':memory:'));
  lib.indexDocument({ docId: 'a1', ownerKeyId: 'alice', fileName: 'alpha.pdf', pageCount: 2, blobHash: 'ha', pages: [prosePage(1, ['Quarterly dividends were raised twice.']), prosePage(2, ['Warehouse leases expire in 2031.'])] });
  lib.indexDocument({ docId: 'b1', ownerKeyId: 'bob', fileName: '年报.pdf', pageCount: 1, blobHash: 'hb', pages: [prosePage(1, ['本公司营业收入同比增长百分之二十，主要来自新能源汽车业务。'])] });
  return lib;
}

describe('Library', () => {
  it('creates its tables once and can be opened again on the same database', () => {
    const db = new Database(':memory:');
    new Library(db);
    expect(() => new Library(db)).not.toThrow();
    const names = (db.prepare(`SELECT name FROM sqlite_master WHERE name LIKE 'library_%' ORDER BY name`).all() as { name: string }[]).map((r) => r.name);
    expect(names).toContain('library_documents');
    expect(names).toContain('library_fts');
  });

  it('lists documents per key; the owner sees all', () => {
    const lib = library();
    expect(lib.listDocuments(alice).map((d) => d.docId)).toEqual(['a1']);
    expect(lib.listDocuments(bob).map((d) => d.docId)).toEqual(['b1']);
    expect(lib.listDocuments(owner).map((d) => d.docId).sort()).toEqual(['a1', 'b1']);
    expect(lib.getDocument('a1')).toEqual({ docId: 'a1', ownerKeyId: 'alice', fileName: 'alpha.pdf', pageCount: 2, blobHash: 'ha' });
  });

  it('finds the page by BM25, English words stemmed, only within the key', () => {
    const lib = library();
    const hits = lib.search(alice, 'lease expiry');
    expect(hits[0]).toMatchObject({ docId: 'a1', pageNumber: 2, kind: 'page' });
    expect(hits[0]!.score).toBeGreaterThan(0);
    expect(lib.search(bob, 'lease')).toEqual([]);
  });

  it('finds Chinese text by jieba tokens', () => {
    const lib = library();
    expect(tokenizeForSearch('营业收入增长')).toEqual(expect.arrayContaining(['营业', '收入']));
    const hits = lib.search(owner, '新能源汽车的收入');
    expect(hits[0]).toMatchObject({ docId: 'b1', pageNumber: 1 });
  });

  it('indexes parsed tables with their cells and removes a document completely', () => {
    const lib = library();
    const parse: ParseResult = {
      file_name: 'alpha.pdf',
      nodes: [
        {
          id: 1, text: 'Segment revenue', type: 'Table', relation: 'part_of', path_info: { path: [], path_context: '' }, parent_id: -1,
          composing_blocks: [{ system: 'PixelSpace', coordinates: [0, 0, 10, 10], page_number: 2, layout_width: 100, layout_height: 100 }],
          caption: 'Segment revenue', note: '', vlm_understanding: null,
          cells: [
            { row: 0, col: 0, row_span: 1, col_span: 1, text: 'Segment', box: [0, 0, 1, 1], page_number: 2 },
            { row: 0, col: 1, row_span: 1, col_span: 1, text: '2023', box: [0, 0, 1, 1], page_number: 2 },
            { row: 1, col: 0, row_span: 1, col_span: 1, text: 'Turbines', box: [0, 0, 1, 1], page_number: 2 },
            { row: 1, col: 1, row_span: 1, col_span: 1, text: '4,210', box: [0, 0, 1, 1], page_number: 2 },
          ],
        },
      ],
    };
    lib.indexDocument({ docId: 'a1', ownerKeyId: 'alice', fileName: 'alpha.pdf', pageCount: 2, blobHash: 'ha', pages: [prosePage(1, ['x']), prosePage(2, ['y'])], parse });
    const t = lib.getTables('a1', 2);
    expect(t).toHaveLength(1);
    expect(t[0]!.markdown).toContain('| Turbines | 4,210 |');
    expect(lib.search(alice, 'turbines', { kind: 'table' })[0]).toMatchObject({ docId: 'a1', pageNumber: 2, tableIndex: 0 });
    // re-indexing replaced the old pages
    expect(lib.search(alice, 'dividends')).toEqual([]);
    lib.removeDocument('a1');
    expect(lib.listDocuments(owner).map((d) => d.docId)).toEqual(['b1']);
    expect(lib.getPage('a1', 1)).toBeNull();
    expect(lib.search(owner, 'turbines')).toEqual([]);
  });
});
