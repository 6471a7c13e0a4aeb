import { create } from 'zustand';
import type { Operation, TaskData, TaskStatus } from '../api/types.js';

export type View = 'library' | 'viewer' | 'extract' | 'mask' | 'chat' | 'settings';
export type FileKind = 'pdf' | 'image' | 'other';

export interface TaskEntry {
  /** local id (the server's task_id arrives after upload) */
  id: string;
  operation: Operation;
  mode: string;
  file: File;
  fileName: string;
  kind: FileKind;
  status: 'uploading' | TaskStatus;
  taskId?: string;
  error?: { code: string; message: string };
  data?: TaskData;
  submittedAt: number;
  /** upload progress, 0..1 */
  uploaded?: number;
  processingSince?: number;
  finishedAt?: number;
}

/** A document opened from a citation: fetched from its signed link. */
export interface CitedDocument {
  fileName: string;
  url: string;
  page: number;
}

export interface Choice {
  operation: Operation;
  parseMode: string;
  extractMode: string;
  maskMode: string;
  schemaFields: string;
  prompt: string;
  maskFields: string;
}

interface WorkspaceState {
  view: View;
  tasks: TaskEntry[];
  selectedId: string | null;
  cited: CitedDocument | null;
  choice: Choice;
  setView(view: View): void;
  select(id: string | null): void;
  addTask(t: TaskEntry): void;
  updateTask(id: string, patch: Partial<TaskEntry>): void;
  clearFinished(): void;
  openCitation(doc: CitedDocument): void;
  setChoice(patch: Partial<Choice>): void;
}

export const DEFAULT_MASK_FIELDS = ['患者姓名', '患者性别', '入院时间', '出院时间', '年龄', '住院时长'];

export const useWorkspace = create<WorkspaceState>()((set) => ({
  view: 'library',
  tasks: [],
  selectedId: null,
  cited: null,
  choice: {
    operation: 'parse',
    parseMode: 'pro',
    extractMode: 'docai-extract',
    maskMode: 'emr-mask',
    schemaFields: '',
    prompt: '',
    maskFields: DEFAULT_MASK_FIELDS.join('\n'),
  },
  setView: (view) => set({ view }),
  select: (id) => set({ selectedId: id, cited: null }),
  addTask: (t) => set((s) => ({ tasks: [t, ...s.tasks] })),
  updateTask: (id, patch) => set((s) => ({ tasks: s.tasks.map((t) => (t.id === id ? { ...t, ...patch } : t)) })),
  clearFinished: () =>
    set((s) => {
      const tasks = s.tasks.filter((t) => t.status === 'uploading' || t.status === 'PROCESSING' || t.status === 'PENDING');
      return { tasks, selectedId: tasks.some((t) => t.id === s.selectedId) ? s.selectedId : null };
    }),
  openCitation: (doc) => set({ cited: doc, view: 'viewer' }),
  setChoice: (patch) => set((s) => ({ choice: { ...s.choice, ...patch } })),
}));

export function selectedTask(s: { tasks: TaskEntry[]; selectedId: string | null }): TaskEntry | undefined {
  return s.tasks.find((t) => t.id === s.selectedId);
}

export const VIEW_OF_OPERATION: Record<Operation, View> = { parse: 'viewer', extract: 'extract', mask: 'mask' };
