/**
 * The few parts of the ONNX protobuf format that OCR's load-time graph rewrite needs: a model's graph nodes and
 * float initializers, read and written back. Every other field is kept byte for byte, so a model re-encoded without
 * changes is the same model. (onnx.proto3: ModelProto.graph = 7; GraphProto.node = 1, initializer = 5;
 * NodeProto input 1, output 2, name 3, op_type 4, attribute 5, domain 7; TensorProto dims 1, data_type 2,
 * float_data 4, name 8, raw_data 9; AttributeProto name 1, f 2, i 3, t 5, type 20.)
 */

export interface PbField {
  no: number;
  wire: 0 | 1 | 2 | 5;
  /** Varint value (wire 0). */
  num?: bigint;
  /** Payload bytes (wire 1, 2, 5). */
  bytes?: Uint8Array;
}

export function readFields(buf: Uint8Array): PbField[] {
  const out: PbField[] = [];
  let p = 0;
  const varint = (): bigint => {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      if (p >= buf.length) throw new RangeError('truncated protobuf varint');
      const b = buf[p++]!;
      v |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return v;
      shift += 7n;
    }
  };
  while (p < buf.length) {
    const tag = Number(varint());
    const no = tag >>> 3;
    const wire = tag & 7;
    if (wire === 0) out.push({ no, wire, num: varint() });
    else if (wire === 1 || wire === 5) {
      const n = wire === 1 ? 8 : 4;
      if (p + n > buf.length) throw new RangeError('truncated protobuf fixed field');
      out.push({ no, wire, bytes: buf.subarray(p, p + n) });
      p += n;
    } else if (wire === 2) {
      const n = Number(varint());
      if (p + n > buf.length) throw new RangeError('truncated protobuf field');
      out.push({ no, wire, bytes: buf.subarray(p, p + n) });
      p += n;
    } else throw new RangeError(`unsupported protobuf wire type ${wire}`);
  }
  return out;
}

function varintBytes(v: bigint): number[] {
  const out: number[] = [];
  let x = BigInt.asUintN(64, v);
  do {
    let b = Number(x & 0x7fn);
    x >>= 7n;
    if (x > 0n) b |= 0x80;
    out.push(b);
  } while (x > 0n);
  return out;
}

export function writeFields(fields: PbField[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let total = 0;
  const push = (u: Uint8Array) => {
    parts.push(u);
    total += u.length;
  };
  for (const f of fields) {
    push(Uint8Array.from(varintBytes(BigInt((f.no << 3) | f.wire))));
    if (f.wire === 0) push(Uint8Array.from(varintBytes(f.num ?? 0n)));
    else {
      const b = f.bytes ?? new Uint8Array(0);
      if (f.wire === 2) push(Uint8Array.from(varintBytes(BigInt(b.length))));
      push(b);
    }
  }
  const out = new Uint8Array(total);
  let o = 0;
  for (const u of parts) {
    out.set(u, o);
    o += u.length;
  }
  return out;
}

const utf8 = new TextDecoder();
const enc = new TextEncoder();

export const str = (b: Uint8Array | undefined): string => (b ? utf8.decode(b) : '');
export const strField = (no: number, s: string): PbField => ({ no, wire: 2, bytes: enc.encode(s) });

export interface OnnxNode {
  inputs: string[];
  outputs: string[];
  name: string;
  opType: string;
  domain: string;
  /** Attributes as their raw AttributeProto fields, by name. */
  attrs: Map<string, PbField[]>;
}

export function readNode(buf: Uint8Array): OnnxNode {
  const node: OnnxNode = { inputs: [], outputs: [], name: '', opType: '', domain: '', attrs: new Map() };
  for (const f of readFields(buf)) {
    if (f.no === 1) node.inputs.push(str(f.bytes));
    else if (f.no === 2) node.outputs.push(str(f.bytes));
    else if (f.no === 3) node.name = str(f.bytes);
    else if (f.no === 4) node.opType = str(f.bytes);
    else if (f.no === 7) node.domain = str(f.bytes);
    else if (f.no === 5) {
      const a = readFields(f.bytes!);
      node.attrs.set(str(a.find((x) => x.no === 1)?.bytes), a);
    }
  }
  return node;
}

export function writeNode(n: OnnxNode): Uint8Array {
  const fields: PbField[] = [];
  for (const i of n.inputs) fields.push(strField(1, i));
  for (const o of n.outputs) fields.push(strField(2, o));
  if (n.name) fields.push(strField(3, n.name));
  fields.push(strField(4, n.opType));
  for (const a of n.attrs.values()) fields.push({ no: 5, wire: 2, bytes: writeFields(a) });
  if (n.domain) fields.push(strField(7, n.domain));
  return writeFields(fields);
}

/** A float attribute's value (AttributeProto.f), if the node has it. */
export function floatAttr(n: OnnxNode, name: string): number | undefined {
  const f = n.attrs.get(name)?.find((x) => x.no === 2);
  return f?.bytes ? new DataView(f.bytes.buffer, f.bytes.byteOffset, 4).getFloat32(0, true) : undefined;
}

export function intAttr(n: OnnxNode, name: string): bigint | undefined {
  return n.attrs.get(name)?.find((x) => x.no === 3)?.num;
}

export function floatAttrFields(name: string, v: number): PbField[] {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, v, true);
  return [strField(1, name), { no: 2, wire: 5, bytes: b }, { no: 20, wire: 0, num: 1n }];
}

export function intAttrFields(name: string, v: number): PbField[] {
  return [strField(1, name), { no: 3, wire: 0, num: BigInt(v) }, { no: 20, wire: 0, num: 2n }];
}

export function intsAttrFields(name: string, vs: number[]): PbField[] {
  return [strField(1, name), ...vs.map((v): PbField => ({ no: 8, wire: 0, num: BigInt(v) })), { no: 20, wire: 0, num: 7n }];
}

export interface FloatTensor {
  name: string;
  dims: number[];
  data: Float32Array;
}

const FLOAT = 1n;

/** A TensorProto as float32, or null when it holds another type. */
export function readFloatTensor(buf: Uint8Array): FloatTensor | null {
  let name = '';
  const dims: number[] = [];
  let type = 0n;
  let raw: Uint8Array | null = null;
  const floats: number[] = [];
  for (const f of readFields(buf)) {
    if (f.no === 1) {
      if (f.wire === 0) dims.push(Number(BigInt.asIntN(64, f.num!)));
      else for (const d of readPackedVarints(f.bytes!)) dims.push(Number(BigInt.asIntN(64, d)));
    } else if (f.no === 2) type = f.num!;
    else if (f.no === 8) name = str(f.bytes);
    else if (f.no === 9) raw = f.bytes!;
    else if (f.no === 4) {
      const b = f.bytes!;
      const dv = new DataView(b.buffer, b.byteOffset, b.length);
      if (f.wire === 5) floats.push(dv.getFloat32(0, true));
      else for (let k = 0; k + 4 <= b.length; k += 4) floats.push(dv.getFloat32(k, true));
    }
  }
  if (type !== FLOAT) return null;
  let data: Float32Array;
  if (raw) {
    data = new Float32Array(raw.length / 4);
    const dv = new DataView(raw.buffer, raw.byteOffset, raw.length);
    for (let k = 0; k < data.length; k++) data[k] = dv.getFloat32(k * 4, true);
  } else data = Float32Array.from(floats);
  return { name, dims, data };
}

function readPackedVarints(b: Uint8Array): bigint[] {
  const out: bigint[] = [];
  let v = 0n;
  let shift = 0n;
  for (const x of b) {
    v |= BigInt(x & 0x7f) << shift;
    if (x < 0x80) {
      out.push(v);
      v = 0n;
      shift = 0n;
    } else shift += 7n;
  }
  return out;
}

export function writeFloatTensor(t: FloatTensor): Uint8Array {
  const raw = new Uint8Array(t.data.length * 4);
  const dv = new DataView(raw.buffer);
  t.data.forEach((v, k) => dv.setFloat32(k * 4, v, true));
  return writeFields([
    ...t.dims.map((d): PbField => ({ no: 1, wire: 0, num: BigInt(d) })),
    { no: 2, wire: 0, num: FLOAT },
    strField(8, t.name),
    { no: 9, wire: 2, bytes: raw },
  ]);
}
