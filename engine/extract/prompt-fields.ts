/**
 * The field names a free-text instruction asks for: "提取发票号码、开票日期和金额",
 * "请帮我抽取合同的甲方和乙方", "extract the invoice number and total", or a list with one name per line.
 */
const ZH_LEAD = /^(?:请|麻烦|帮我|帮忙|你|需要|我想|我要|请你|请帮我)*(?:提取|抽取|识别|获取|找出|读取|输出|返回|列出|给出|告诉我|查找|找到|摘录)(?:出|下|一下)?(?:文档|文件|图片|图中|票据|该文档|这份文件|这张图片)?(?:中|里|里面|上)?(?:的)?/u;
const EN_LEAD = /^(?:please\s+)?(?:can you\s+|could you\s+)?(?:extract|get|find|pull out|read|list|return|give me|tell me|identify|capture|output)\s+/iu;
const EN_TAIL = /\s+(?:from|in|on|of)\s+(?:the|this|these|that)\s+(?:document|file|image|page|form|invoice|receipt|pdf|scan)s?\b.*$/iu;
const ZH_TAIL = /(?:等)?(?:字段|信息|内容|数据|项)?(?:的值)?[。.!！]*$/u;

export function promptFields(prompt: string): string[] {
  const text = prompt.normalize('NFKC').trim();
  if (!text) return [];
  // Quoted names win: “发票号码”, "total", 「金额」.
  const quoted = [...text.matchAll(/[“"「『'‘]([^”"」』'’]{1,30})[”"」』'’]/gu)].map((m) => m[1]!.trim()).filter(Boolean);
  if (quoted.length > 0) return unique(quoted);
  const lines = text.split(/\n+/).map((l) => l.replace(/^\s*(?:[-*•]|\d+[.、)])\s*/u, '').trim()).filter(Boolean);
  if (lines.length > 2 && lines.slice(1).every((l) => l.length <= 30)) {
    return unique(lines.slice(/[:：]$/.test(lines[0]!) || lines[0]!.length > 30 ? 1 : 0).flatMap(splitList));
  }
  let body = text.replace(/[:：]\s*/u, (m, off: number) => (off < 20 ? ' ' : m));
  body = body.replace(ZH_LEAD, '').replace(EN_LEAD, '').replace(EN_TAIL, '').trim();
  body = body.replace(/^(?:the|all)\s+/iu, '');
  return unique(splitList(body));
}

function splitList(s: string): string[] {
  return s
    .split(/[、,，;；/]|\s*(?:以及|及|和|与|跟|还有|并且|并)\s*|\s+(?:and|&|as well as|plus)\s+/iu)
    .map((p) => p.trim())
    .map((p) => p.replace(/^(?:and\s+|the\s+|its\s+|a\s+|an\s+)+/iu, ''))
    .map((p) => p.replace(ZH_TAIL, '').replace(/[.?!。？！]+$/u, '').trim())
    // "合同的甲方" -> "甲方"
    .map((p) => (/[\u4e00-\u9fff]的[\u4e00-\u9fff]/u.test(p) ? p.slice(p.lastIndexOf('的') + 1) : p))
    .filter((p) => p.length > 0 && p.length <= 30);
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}
