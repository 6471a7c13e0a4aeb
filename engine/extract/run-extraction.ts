import { DocError } from '../core/errors.js';
import type { DocumentPages } from '../core/page.js';
import type { ExtractMode, TemplatePageItem } from '../core/results.js';
import { layoutDocument, layoutPage } from './form-layout.js';
import { extractClosed, extractFlash, extractOpen } from './generic-extraction.js';
import { promptFields } from './prompt-fields.js';
import { schemaFields, type FieldRequest } from './schema-fields.js';
import { BL_FIELDS, extractBusinessLicence } from './templates/bl/extract-business-licence.js';
import { OCC_FIELDS, extractOrgCodeCertificate } from './templates/occ/extract-org-code-cert.js';
import { extractMedicalRecord } from './templates/emr/extract-medical-record.js';

export interface ExtractionRequest {
  mode: ExtractMode;
  jsonSchema: unknown | null;
  prompt: string;
}

/**
 * The spec's `data.results` for the given files, in order: docai-extract and flash one item per file,
 * bl/occ one item per page (files in order), emr one merged item for the whole task.
 */
export async function runExtraction(files: { fileName: string; doc: DocumentPages }[], req: ExtractionRequest): Promise<unknown[]> {
  switch (req.mode) {
    case 'docai-extract': {
      const fields = schemaFields(req.jsonSchema);
      if (fields) return files.map((f) => extractClosed(f.doc, fields));
      const prompt = (req.prompt ?? '').trim();
      if (prompt) {
        const names = promptFields(prompt);
        if (names.length > 0) {
          const asked: FieldRequest[] = names.map((name) => ({ name, type: 'string', hints: [] }));
          return files.map((f) => extractClosed(f.doc, asked));
        }
      }
      return files.map((f) => extractOpen(f.doc));
    }
    case 'docai-extract-flash': {
      const fields = schemaFields(req.jsonSchema);
      if (!fields) throw new DocError('INVALID_PARAMETER', 'docai-extract-flash needs a json_schema of type object with at least one property');
      return files.map((f) => extractFlash(f.doc, fields));
    }
    case 'bl-extract':
      return templatePages(files, (layout) => {
        const r = extractBusinessLicence(layout);
        return { keys: [...BL_FIELDS, '图片类型'], fields: { ...r.fields, 图片类型: r.type } };
      });
    case 'occ-extract':
      return templatePages(files, (layout) => {
        const r = extractOrgCodeCertificate(layout);
        return { keys: [...OCC_FIELDS, '图片类型'], fields: { ...r.fields, 图片类型: r.type } };
      });
    case 'emr-extract':
      return [extractMedicalRecord(files.map((f) => layoutDocument(f.doc)))];
    default:
      throw new DocError('INVALID_PARAMETER', `unknown extract mode: ${String(req.mode)}`);
  }
}

function templatePages(
  files: { fileName: string; doc: DocumentPages }[],
  read: (layout: ReturnType<typeof layoutPage>) => { keys: string[]; fields: Record<string, string> },
): TemplatePageItem[] {
  const out: TemplatePageItem[] = [];
  for (const f of files) {
    for (const page of f.doc.pages) {
      const r = read(layoutPage(page));
      out.push({ page_number: page.pageNumber, extract_data: [{ key_index: r.keys, extracted_fields: r.fields }] });
    }
  }
  return out;
}
