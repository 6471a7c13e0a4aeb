import type { MessageKey } from '../../i18n/en.js';
import { useT } from '../../i18n/translate.js';
import { colourOf } from '../viewer/overlay-box.js';
import type { FieldRow, TemplateKind } from './field-rows.js';

interface Props {
  kind: TemplateKind;
  rows: FieldRow[];
  selected: string | null;
  onSelect(key: string): void;
}

/** Where each known field goes in a licence, certificate or record; anything else follows in order. */
const LAYOUT: Record<Exclude<TemplateKind, 'generic'>, { heading: string; header: string[]; wide: string[] }> = {
  licence: {
    heading: '营业执照',
    header: ['统一社会信用代码', '名称', '类型', '法定代表人', '注册资本', '成立日期', '营业期限', '住所'],
    wide: ['经营范围'],
  },
  certificate: {
    heading: '中华人民共和国组织机构代码证',
    header: ['组织机构代码', '机构名称', '机构类型', '地址', '有效期', '颁发单位', '登记号'],
    wide: [],
  },
  record: {
    heading: '病历',
    header: ['患者姓名', '患者性别', '年龄', '入院时间', '出院时间', '住院时长'],
    wide: ['主诉', '现病史', '既往史'],
  },
};

const TITLE_KEY: Record<TemplateKind, MessageKey> = {
  licence: 'extract.licence',
  certificate: 'extract.certificate',
  record: 'extract.record',
  generic: 'extract.generic',
};

/** Extracted fields laid out like the document they came from; each value selects its box. */
export function TemplateForm({ kind, rows, selected, onSelect }: Props) {
  const t = useT();
  const byName = new Map(rows.map((r) => [r.name, r]));
  const layout = kind === 'generic' ? null : LAYOUT[kind];
  const placed = new Set([...(layout?.header ?? []), ...(layout?.wide ?? [])]);
  const docType = byName.get('图片类型')?.values[0]?.value;
  const header = layout ? layout.header.map((n) => byName.get(n) ?? { name: n, values: [] }) : rows;
  const wide = layout ? layout.wide.map((n) => byName.get(n) ?? { name: n, values: [] }) : [];
  const rest = layout ? rows.filter((r) => !placed.has(r.name) && r.name !== '图片类型') : [];

  const field = (row: FieldRow, wideField = false) => (
    <div key={row.name} className={`field${wideField ? ' field-wide' : ''}`} data-testid="field" data-name={row.name}>
      <label style={{ borderColor: colourOf(row.name) }}>{row.name}</label>
      <div className="field-values">
        {row.values.length === 0 || (row.values.length === 1 && !row.values[0]!.value) ? (
          <span className="muted">—</span>
        ) : (
          row.values.map((v, i) => {
            const key = `${row.name}#${i}`;
            return (
              <button
                key={key}
                className={`field-value${selected === key ? ' selected' : ''}${v.bbox ? '' : ' no-box'}`}
                onClick={() => onSelect(key)}
                title={v.bbox ? `p.${v.page} [${v.bbox.join(', ')}]` : t('extract.noBox')}
                data-testid="field-value"
              >
                {v.value}
              </button>
            );
          })
        )}
      </div>
    </div>
  );

  return (
    <div className={`template template-${kind}`} data-testid="template" data-kind={kind}>
      <div className="template-heading">
        <h2>{layout?.heading ?? t(TITLE_KEY[kind])}</h2>
        {docType && <span className="badge">图片类型: {docType}</span>}
      </div>
      <div className="template-grid">{header.map((r) => field(r))}</div>
      {wide.map((r) => field(r, true))}
      {rest.length > 0 && <div className="template-grid">{rest.map((r) => field(r))}</div>}
    </div>
  );
}
