import { mkdir, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { loadSettings } from '../core/config.js';
import { DocError } from '../core/errors.js';
import { PARSE_MODES, type ParseMode, type ParseResult } from '../core/results.js';
import { readDocument, type OcrPolicy } from '../vision/read-document.js';
import { detectDocumentLayout } from '../vision/layout/learned/detect-layout.js';
import { buildParseResult } from './build-result.js';
import { buildNodes } from './build-nodes.js';
import { mergeContinuations } from './merge-continuations.js';
import { nodesToMarkdown } from './markdown.js';
import { parsePages } from './parse-pages.js';

const USAGE = `usage: docai parse FILE... [--mode lite|pro|premium] [--out DIR] [--format json|md] [--ocr auto|always|never]

  --mode    lite (blocks), pro (node tree, default), premium (tree, markdown, table and chart readings);
            docai-parse-flash and docai-parse-premium are accepted too
  --out     write <name>.json or <name>.md per file into DIR (default: print to stdout)
  --format  json (the API's parse result, default) or md (Markdown)
  --ocr     auto (default: OCR pages without a usable text layer), always, never`;

interface ParseArgs {
  files: string[];
  mode: ParseMode;
  out: string | null;
  format: 'json' | 'md';
  ocr: OcrPolicy;
}

function parseArgs(argv: string[]): ParseArgs | string {
  const a: ParseArgs = { files: [], mode: 'pro', out: null, format: 'json', ocr: 'auto' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    if (flag === '--mode') {
      const v = value();
      const mode = v ? PARSE_MODES[v] : undefined;
      if (!mode) return `unknown mode ${v ?? '(none)'}; use lite, pro or premium`;
      a.mode = mode;
    } else if (flag === '--out') {
      const v = value();
      if (!v) return '--out needs a folder';
      a.out = v;
    } else if (flag === '--format') {
      const v = value();
      if (v !== 'json' && v !== 'md') return `unknown format ${v ?? '(none)'}; use json or md`;
      a.format = v;
    } else if (flag === '--ocr') {
      const v = value();
      if (v !== 'auto' && v !== 'always' && v !== 'never') return `unknown OCR policy ${v ?? '(none)'}; use auto, always or never`;
      a.ocr = v;
    } else if (flag.startsWith('-') && flag !== '-') return `unknown option ${flag}`;
    else a.files.push(arg);
  }
  if (a.files.length === 0) return 'no file given';
  return a;
}

function progress(done: number, total: number, label: string): void {
  const width = 24;
  const filled = Math.round((done / total) * width);
  const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${label}`;
  if (process.stderr.isTTY) process.stderr.write(`\r${bar.slice(0, (process.stderr.columns || 80) - 1).padEnd((process.stderr.columns || 80) - 1)}`);
  else process.stderr.write(`${bar}\n`);
}

function markdownOf(result: ParseResult, doc: Parameters<typeof parsePages>[0]): string {
  if (result.markdown !== undefined) return result.markdown;
  if (result.nodes) return nodesToMarkdown(result.nodes);
  return nodesToMarkdown(buildNodes(mergeContinuations(parsePages(doc).regions)));
}

/** `docai parse`: runs the engine in this process; returns the exit code (0 all parsed, 1 a file failed, 2 usage). */
export async function runParseCommand(argv: string[]): Promise<number> {
  if (argv.includes('-h') || argv.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    process.stderr.write(`docai parse: ${args}\n${USAGE}\n`);
    return 2;
  }
  if (args.out) await mkdir(args.out, { recursive: true });
  const outputs: string[] = [];
  const jsonResults: ParseResult[] = [];
  let failed = 0;
  const total = args.files.length;
  progress(0, total, '');
  // A learned layout model in the model folder (settings.modelDir / DOCAI_MODEL_DIR, see the README) looks at each file first.
  const { modelDir } = loadSettings();
  for (const [i, file] of args.files.entries()) {
    const name = basename(file);
    try {
      const doc = await detectDocumentLayout(await readDocument(file, { fileName: name, ocr: args.ocr }), { path: file }, { modelDir });
      const result = buildParseResult(doc, name, args.mode);
      const text = args.format === 'md' ? markdownOf(result, doc) : `${JSON.stringify(result, null, 2)}\n`;
      if (args.out) {
        const stem = basename(name, extname(name)) || name;
        const target = join(args.out, `${stem}.${args.format}`);
        await writeFile(target, text);
        outputs.push(target);
      } else if (args.format === 'md') outputs.push(text);
      else jsonResults.push(result);
    } catch (err) {
      failed++;
      const msg = err instanceof DocError ? `${err.code}: ${err.message}` : (err as Error).message;
      if (process.stderr.isTTY) process.stderr.write('\n');
      process.stderr.write(`docai parse: ${name}: ${msg}\n`);
    }
    progress(i + 1, total, name);
  }
  if (process.stderr.isTTY) process.stderr.write('\n');
  if (args.out) process.stderr.write(`wrote ${outputs.length} file(s) to ${args.out}\n`);
  else if (args.format === 'md') process.stdout.write(outputs.join('\n'));
  else process.stdout.write(`${JSON.stringify(jsonResults.length === 1 ? jsonResults[0] : jsonResults, null, 2)}\n`);
  return failed > 0 ? 1 : 0;
}
