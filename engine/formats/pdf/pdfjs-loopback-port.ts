/**
 * pdf.js on Node runs its worker half in this thread (the "fake worker"), joined to the main half by a
 * LoopbackPort whose every message is deep-copied with structuredClone. For operator-list chunks that
 * copy is most of the cost of a page (every glyph object of every shown string, each time). The worker
 * builds a fresh args array per operator and only empties its own fnArray/argsArray after sending, so
 * copying those two arrays one level deep is enough; the args and glyphs are handed over as they are
 * (read only on this side). Every other message still goes through structuredClone.
 */

const ENQUEUE = 4; // pdf.js StreamKind.ENQUEUE

interface OpListChunk {
  fnArray: unknown[];
  argsArray: unknown[];
}

interface PortMessage {
  stream?: number;
  chunk?: Partial<OpListChunk> & Record<string, unknown>;
}

interface LoopbackPortLike {
  postMessage(obj: unknown, transfer?: unknown[]): void;
  addEventListener(name: string, listener: (event: { data: unknown }) => void, options?: unknown): void;
  removeEventListener(name: string, listener: (event: { data: unknown }) => void): void;
  terminate(): void;
}

const PATCHED = Symbol.for('docai.pdfjs.loopbackPort.opListPassThrough');

/** Pass operator-list chunks across the given port's class without deep copies (once per process). */
export function passOperatorListsByReference(port: object): void {
  const proto = Object.getPrototypeOf(port) as LoopbackPortLike & { [PATCHED]?: true };
  if (proto[PATCHED] || typeof proto.postMessage !== 'function' || typeof proto.addEventListener !== 'function') return;
  const post = proto.postMessage;
  const listen = proto.addEventListener;
  const unlisten = proto.removeEventListener;
  const terminate = proto.terminate;
  // Chunks in flight, per port (a terminated port drops what its listeners never took).
  const parkedOf = new WeakMap<object, Map<number, OpListChunk>>();
  const parkedOn = (port: object): Map<number, OpListChunk> => {
    let m = parkedOf.get(port);
    if (!m) parkedOf.set(port, (m = new Map()));
    return m;
  };
  const wrapped = new WeakMap<object, (event: { data: unknown }) => void>();
  let nextId = 1;

  proto.postMessage = function (this: LoopbackPortLike, obj: unknown, transfer?: unknown[]) {
    const msg = obj as PortMessage | null;
    const chunk = msg?.chunk;
    if (msg && msg.stream === ENQUEUE && chunk && Array.isArray(chunk.fnArray) && Array.isArray(chunk.argsArray)) {
      const id = nextId++;
      parkedOn(this).set(id, { fnArray: chunk.fnArray.slice(), argsArray: chunk.argsArray.slice() });
      post.call(this, { ...msg, chunk: { ...chunk, fnArray: [], argsArray: [], parkedOpList: id } });
      return;
    }
    post.call(this, obj, transfer);
  };
  proto.addEventListener = function (this: LoopbackPortLike, name: string, listener: (event: { data: unknown }) => void, options?: unknown) {
    const inner = (event: { data: unknown }) => {
      const chunk = (event.data as PortMessage | null)?.chunk as (Record<string, unknown> & { parkedOpList?: number }) | undefined;
      const id = chunk?.parkedOpList;
      if (typeof id === 'number') {
        const parked = parkedOn(this);
        const parts = parked.get(id);
        if (parts) {
          parked.delete(id);
          chunk!.fnArray = parts.fnArray;
          chunk!.argsArray = parts.argsArray;
        }
        delete chunk!.parkedOpList;
      }
      listener.call(this, event);
    };
    wrapped.set(listener, inner);
    listen.call(this, name, inner, options);
  };
  proto.removeEventListener = function (this: LoopbackPortLike, name: string, listener: (event: { data: unknown }) => void) {
    unlisten.call(this, name, wrapped.get(listener) ?? listener);
  };
  if (typeof terminate === 'function') {
    proto.terminate = function (this: LoopbackPortLike) {
      parkedOf.delete(this);
      terminate.call(this);
    };
  }
  proto[PATCHED] = true;
}
