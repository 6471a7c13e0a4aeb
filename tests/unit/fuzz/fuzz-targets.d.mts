import type { IAsyncPropertyWithHooks, Parameters as FcParameters, Arbitrary } from 'fast-check';

export interface FuzzServer {
  url: string;
  key: string;
}
export interface TargetSummary {
  name: string;
  runs: number;
  seconds: number;
  failed: boolean;
  interrupted: boolean;
  seed: number;
  counterexample: string | null;
  error: string | null;
}
export type PdfMutation =
  | { kind: 'flip'; at: [number, number][] }
  | { kind: 'cut'; at: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'token'; from: string; to: string; nth: number }
  | { kind: 'splice'; a: number; len: number; to: number };
export function applyMutation(buf: Buffer, m: PdfMutation): Buffer;
export function pdfMutations(bases: Buffer | Buffer[]): Arbitrary<Buffer>;
export function readDocumentProperty(
  readDocument: (path: string, opts: { fileName: string; format?: string; ocr?: string }) => Promise<unknown>,
  basePdfs: Buffer | Buffer[],
  timeoutMs?: number,
): { property: IAsyncPropertyWithHooks<[Buffer]>; strays: { count: number; first: string | null; file: string | null }; cleanup: () => void };
export function postBytes(baseUrl: string, path: string, body: Buffer, headers: Record<string, string>): Promise<{ status: number; text: string; type: string }>;
export function multipartBody(parts: { name: string; filename?: string; data: Buffer }[], boundary: string, mode?: string): Buffer;
export function multipartProperty(server: FuzzServer, goodPdf: Buffer): IAsyncPropertyWithHooks<unknown[]>;
export function parseV2Property(server: FuzzServer): IAsyncPropertyWithHooks<[string]>;
export function chatProperty(server: FuzzServer): IAsyncPropertyWithHooks<[string]>;
export function runTarget(name: string, property: IAsyncPropertyWithHooks<any>, params: FcParameters<any>): Promise<TargetSummary>;
