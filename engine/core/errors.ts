/**
 * Error codes are data: one table mapping code -> HTTP status -> default message (ARCHITECTURE.md).
 */
export type DocErrorCode =
  | 'EMPTY_TASK'
  | 'ILLEGALITY_TASK_TYPE'
  | 'API_UNAUTHORIZED'
  | 'INVALID_PARAMETER'
  | 'INVALID_DOCUMENT'
  | 'INSUFFICIENT_BALANCE'
  | 'MISSING_FILE'
  | 'FILE_DOWNLOAD_FAILED';

export const DOC_ERRORS: Record<DocErrorCode, { status: number; message: string }> = {
  EMPTY_TASK: { status: 404, message: 'no such task' },
  ILLEGALITY_TASK_TYPE: { status: 409, message: 'this task belongs to another resource' },
  API_UNAUTHORIZED: { status: 401, message: 'missing or unknown api-key' },
  INVALID_PARAMETER: { status: 400, message: 'invalid parameter' },
  INVALID_DOCUMENT: { status: 422, message: 'the file is damaged, unsupported or cannot be processed' },
  INSUFFICIENT_BALANCE: { status: 402, message: 'account balance too low' },
  MISSING_FILE: { status: 400, message: 'no file uploaded' },
  FILE_DOWNLOAD_FAILED: { status: 400, message: 'the file could not be downloaded' },
};

/** An error in the spec's vocabulary. Pipelines throw it for a per-file failure; api/ maps it to HTTP. */
export class DocError extends Error {
  readonly code: DocErrorCode;
  readonly status: number;
  constructor(code: DocErrorCode, message?: string, status?: number) {
    super(message ?? DOC_ERRORS[code].message);
    this.name = 'DocError';
    this.code = code;
    this.status = status ?? DOC_ERRORS[code].status;
  }
  toBody(): { success: false; err_code: DocErrorCode; err_message: string } {
    return { success: false, err_code: this.code, err_message: this.message };
  }
}

export function invalidDocument(message: string): DocError {
  return new DocError('INVALID_DOCUMENT', message);
}
