import { ApiError } from '../../api/api-error.js';
import { runTask, type SubmitOptions } from '../../api/client.js';
import type { TaskData } from '../../api/types.js';
import { connection, useSession } from '../../state/session.js';
import { VIEW_OF_OPERATION, useWorkspace, type Choice, type TaskEntry } from '../../state/workspace.js';
import { fileKind } from './file-kind.js';

let counter = 0;

function linesOf(text: string): string[] {
  return text
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The closed-extraction schema the spec describes: `{type: object, properties: {name: {type: string}}}`. */
export function schemaOf(fields: string[]): { type: 'object'; properties: Record<string, { type: 'string' }> } {
  return { type: 'object', properties: Object.fromEntries(fields.map((f) => [f, { type: 'string' as const }])) };
}

function submitOptions(choice: Choice, file: File): SubmitOptions {
  switch (choice.operation) {
    case 'parse':
      return { operation: 'parse', mode: choice.parseMode, files: [file] };
    case 'extract': {
      const fields = linesOf(choice.schemaFields);
      return {
        operation: 'extract',
        mode: choice.extractMode,
        files: [file],
        jsonSchema: fields.length ? schemaOf(fields) : undefined,
        prompt: choice.prompt.trim() || undefined,
      };
    }
    case 'mask':
      return { operation: 'mask', mode: choice.maskMode, files: [file], jsonSchema: schemaOf(linesOf(choice.maskFields)) };
  }
}

export function describeError(err: unknown): { code: string; message: string } {
  if (err instanceof ApiError) return { code: err.code, message: err.message };
  if (err instanceof TypeError) return { code: 'NETWORK', message: err.message };
  return { code: 'UNKNOWN', message: err instanceof Error ? err.message : String(err) };
}

/** One task per file with the current choice; the newest one is selected and its view opened. */
export function startTasks(files: File[]): void {
  const ws = useWorkspace.getState();
  const choice = ws.choice;
  let first: string | null = null;
  for (const file of files) {
    const id = `t${Date.now().toString(36)}${(counter++).toString(36)}`;
    const opts = submitOptions(choice, file);
    const entry: TaskEntry = {
      id,
      operation: opts.operation,
      mode: opts.mode,
      file,
      fileName: file.name,
      kind: fileKind(file.name, file.type),
      status: 'uploading',
      submittedAt: performance.now(),
    };
    ws.addTask(entry);
    first ??= id;
    void run(id, opts);
  }
  if (first) {
    ws.select(first);
    ws.setView(VIEW_OF_OPERATION[choice.operation]);
  }
}

async function run(id: string, opts: SubmitOptions): Promise<void> {
  const { updateTask } = useWorkspace.getState();
  try {
    const done = await runTask(
      connection(),
      opts,
      (d: TaskData) => {
        const since = useWorkspace.getState().tasks.find((t) => t.id === id)?.processingSince;
        updateTask(id, { status: d.status, taskId: d.task_id, processingSince: since ?? performance.now() });
      },
      undefined,
      (fraction) => updateTask(id, { uploaded: fraction }),
    );
    const patch: Partial<TaskEntry> = { status: done.status, data: done, finishedAt: performance.now() };
    if (done.status !== 'SUCCESS') patch.error = { code: done.err_code ?? 'UNKNOWN', message: done.err_message ?? '' };
    updateTask(id, patch);
  } catch (err) {
    const e = describeError(err);
    if (e.code === 'API_UNAUTHORIZED') useSession.getState().refuseKey();
    updateTask(id, { status: opts.operation === 'parse' ? 'ERROR' : 'FAILED', error: e, finishedAt: performance.now() });
  }
}
