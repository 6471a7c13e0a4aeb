/**
 * The `metadata_props` of an ONNX file (ModelProto field 14: key/value strings). Ultralytics exports keep the
 * class names (`names`) and input size (`imgsz`) there. Only the top level of the protobuf is walked; the graph
 * is skipped by its length. Returns null when the bytes are not a well-formed protobuf message.
 */
export function onnxMetadata(bytes: Uint8Array): Map<string, string> | null {
  const out = new Map<string, string>();
  const dec = new TextDecoder();
  let pos = 0;
  const varint = (): number | null => {
    let value = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      if (pos >= bytes.length) return null;
      const b = bytes[pos++]!;
      value += (b & 0x7f) * mul;
      if (b < 0x80) return value;
      mul *= 128;
    }
    return null;
  };
  /** Fields of a message in [start, end): calls visit(field, start, end) for length-delimited ones. */
  const walk = (end: number, visit: (field: number, s: number, e: number) => void): boolean => {
    while (pos < end) {
      const key = varint();
      if (key === null) return false;
      const field = Math.floor(key / 8);
      const wire = key % 8;
      if (field === 0) return false;
      if (wire === 0) {
        if (varint() === null) return false;
      } else if (wire === 1) pos += 8;
      else if (wire === 5) pos += 4;
      else if (wire === 2) {
        const len = varint();
        if (len === null || pos + len > end) return false;
        const s = pos;
        pos += len;
        visit(field, s, pos);
      } else return false;
    }
    return pos === end;
  };
  const ok = walk(bytes.length, (field, s, e) => {
    if (field !== 14) return;
    const save = pos;
    pos = s;
    let key = '';
    let value = '';
    walk(e, (f, a, b) => {
      if (f === 1) key = dec.decode(bytes.subarray(a, b));
      else if (f === 2) value = dec.decode(bytes.subarray(a, b));
    });
    if (key) out.set(key, value);
    pos = save;
  });
  return ok ? out : null;
}

/** Class names from an Ultralytics `names` entry: a Python dict literal such as `{0: 'title', 1: 'plain text'}`. */
export function parseNamesLiteral(text: string): string[] | null {
  const names: string[] = [];
  const re = /(\d+)\s*:\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) names[Number(m[1])] = (m[2] ?? m[3] ?? '').replace(/\\(.)/g, '$1');
  if (names.length === 0) return null;
  for (let i = 0; i < names.length; i++) names[i] ??= `class_${i}`;
  return names;
}
