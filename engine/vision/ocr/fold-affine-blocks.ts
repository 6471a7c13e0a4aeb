import {
  floatAttr,
  floatAttrFields,
  intAttr,
  intAttrFields,
  intsAttrFields,
  readFields,
  readFloatTensor,
  readNode,
  strField,
  writeFields,
  writeFloatTensor,
  writeNode,
  type FloatTensor,
  type OnnxNode,
  type PbField,
} from './onnx-protobuf.js';

/**
 * Load-time rewrite of the PP-OCR ONNX exports (paddle2onnx) that gives the same function with fewer passes over
 * the activations. PP-LCNetV3, the backbone of the v4 detector and recogniser, follows every convolution with a
 * learnable scalar affine (x*s+b), a hard-swish spelled as four ops (x * clip(x+3, 0, 6) / 6) and a second scalar
 * affine: eight element-wise passes per convolution that onnxruntime does not fuse. Profiled on the recogniser
 * (onnxruntime 1.30, one thread, a 48x1000 line): Conv 38% of the time, Add/Mul/Clip/Div 51%.
 *
 * Rewrites, all exact up to float rounding:
 * 1. Conv -> Mul(s) -> Add(b): s and b go into the convolution's weights and bias.
 * 2. x * Clip(x+3, 0, 6) / 6 -> x * HardSigmoid(x; 1/6, 1/2).
 * 3. h -> Mul(s) -> Add(b) -> Conv: s goes into the next convolution's weights (zero padding scales with it);
 *    b/s is added to h, or goes into the next convolution's bias when it has no padding; nothing when b is 0.
 * Only single-consumer chains with constant operands are touched; anything else is left as it was.
 * Weights are never quantised or reduced in precision.
 */

export interface FoldReport {
  convAffine: number;
  hardSwish: number;
  affineIntoNext: number;
  nodesBefore: number;
  nodesAfter: number;
}

interface Graph {
  nodes: (OnnxNode | null)[];
  consts: Map<string, FloatTensor>;
  /** Tensor name -> indices of nodes reading it. */
  readers: Map<string, number[]>;
  /** Graph outputs: never renamed or removed. */
  outputs: Set<string>;
}

function scalarOf(g: Graph, name: string | undefined): number | null {
  const t = name === undefined ? undefined : g.consts.get(name);
  return t && t.data.length === 1 ? t.data[0]! : null;
}

function onlyReader(g: Graph, name: string): number | null {
  if (g.outputs.has(name)) return null;
  const r = (g.readers.get(name) ?? []).filter((i) => g.nodes[i] !== null);
  return r.length === 1 ? r[0]! : null;
}

function nodeAt(g: Graph, i: number | null, op: string): OnnxNode | null {
  if (i === null) return null;
  const n = g.nodes[i];
  return n && n.opType === op && n.domain === '' ? n : null;
}

/** Mul by a scalar constant: the scalar and the other input, or null. */
function scalarMul(g: Graph, n: OnnxNode | null): { s: number; x: string } | null {
  if (!n || n.opType !== 'Mul' || n.inputs.length !== 2) return null;
  const a = scalarOf(g, n.inputs[0]);
  if (a !== null && !g.consts.has(n.inputs[1]!)) return { s: a, x: n.inputs[1]! };
  const b = scalarOf(g, n.inputs[1]);
  if (b !== null && !g.consts.has(n.inputs[0]!)) return { s: b, x: n.inputs[0]! };
  return null;
}

function scalarAdd(g: Graph, n: OnnxNode | null, x: string): number | null {
  if (!n || n.opType !== 'Add' || n.inputs.length !== 2) return null;
  if (n.inputs[0] === x) return scalarOf(g, n.inputs[1]);
  if (n.inputs[1] === x) return scalarOf(g, n.inputs[0]);
  return null;
}

let fresh = 0;
function newConst(g: Graph, base: string, dims: number[], data: Float32Array): string {
  const name = `${base}__folded${fresh++}`;
  g.consts.set(name, { name, dims, data });
  return name;
}

/** The convolution's weight and bias as fresh constants (a shared weight is never changed in place). */
function convParams(g: Graph, conv: OnnxNode): { w: FloatTensor; b: Float32Array } | null {
  const w = g.consts.get(conv.inputs[1] ?? '');
  if (!w || w.dims.length !== 4) return null;
  const outC = w.dims[0]!;
  const bias = conv.inputs[2] ? g.consts.get(conv.inputs[2]) : undefined;
  if (conv.inputs[2] && (!bias || bias.data.length !== outC)) return null;
  return { w: { ...w, data: Float32Array.from(w.data) }, b: bias ? Float32Array.from(bias.data) : new Float32Array(outC) };
}

function setConvParams(g: Graph, conv: OnnxNode, w: FloatTensor, b: Float32Array): void {
  conv.inputs[1] = newConst(g, conv.inputs[1]!, w.dims, w.data);
  conv.inputs[2] = newConst(g, conv.inputs[2] ?? `${conv.inputs[1]}_bias`, [b.length], b);
  conv.inputs.length = 3;
}

function zeroPads(conv: OnnxNode): boolean {
  const pads = conv.attrs.get('pads');
  const auto = conv.attrs.get('auto_pad')?.find((f) => f.no === 4)?.bytes;
  if (auto && new TextDecoder().decode(auto) !== 'NOTSET' && new TextDecoder().decode(auto) !== 'VALID') return false;
  if (!pads) return true;
  for (const f of pads) {
    if (f.no !== 8) continue;
    if (f.wire === 0 && f.num !== 0n) return false;
    if (f.wire === 2 && f.bytes!.some((b) => b !== 0)) return false;
  }
  return true;
}

/** 1: Conv -> Mul(s) -> Add(b) becomes one Conv. */
function foldConvAffine(g: Graph): number {
  let n = 0;
  g.nodes.forEach((conv) => {
    if (!conv || conv.opType !== 'Conv' || conv.domain !== '') return;
    const mi = onlyReader(g, conv.outputs[0]!);
    const mul = scalarMul(g, nodeAt(g, mi, 'Mul'));
    if (!mul || mul.x !== conv.outputs[0]) return;
    const ai = onlyReader(g, g.nodes[mi!]!.outputs[0]!);
    const add = nodeAt(g, ai, 'Add');
    const b = scalarAdd(g, add, g.nodes[mi!]!.outputs[0]!);
    const p = convParams(g, conv);
    if (b === null || !p) return;
    for (let k = 0; k < p.w.data.length; k++) p.w.data[k]! *= mul.s;
    for (let k = 0; k < p.b.length; k++) p.b[k] = p.b[k]! * mul.s + b;
    setConvParams(g, conv, p.w, p.b);
    conv.outputs[0] = add!.outputs[0]!;
    g.nodes[mi!] = null;
    g.nodes[ai!] = null;
    n++;
  });
  return n;
}

function clipBounds(g: Graph, clip: OnnxNode): [number | null, number | null] {
  if (clip.inputs.length >= 3) return [scalarOf(g, clip.inputs[1]), scalarOf(g, clip.inputs[2])];
  return [floatAttr(clip, 'min') ?? null, floatAttr(clip, 'max') ?? null];
}

/** 2: x * Clip(x + 3, 0, 6) / 6 becomes x * HardSigmoid(x). */
function foldHardSwish(g: Graph): number {
  let n = 0;
  g.nodes.forEach((add, ai) => {
    if (!add || add.opType !== 'Add' || add.domain !== '') return;
    const x = add.inputs.find((i) => !g.consts.has(i));
    if (x === undefined || scalarAdd(g, add, x) !== 3) return;
    const ci = onlyReader(g, add.outputs[0]!);
    const clip = nodeAt(g, ci, 'Clip');
    if (!clip || clip.inputs[0] !== add.outputs[0]) return;
    const [lo, hi] = clipBounds(g, clip);
    if (lo !== 0 || hi !== 6) return;
    const mi = onlyReader(g, clip.outputs[0]!);
    const mul = nodeAt(g, mi, 'Mul');
    if (!mul || !mul.inputs.includes(x) || !mul.inputs.includes(clip.outputs[0]!)) return;
    const di = onlyReader(g, mul.outputs[0]!);
    const div = nodeAt(g, di, 'Div');
    if (!div || div.inputs[0] !== mul.outputs[0] || scalarOf(g, div.inputs[1]) !== 6) return;
    const hs = `${div.outputs[0]}__hardsigmoid`;
    g.nodes[ai] = {
      inputs: [x],
      outputs: [hs],
      name: `${div.outputs[0]}__hs`,
      opType: 'HardSigmoid',
      domain: '',
      attrs: new Map([
        ['alpha', floatAttrFields('alpha', 1 / 6)],
        ['beta', floatAttrFields('beta', 0.5)],
      ]),
    };
    g.readers.set(hs, [mi!]);
    mul.inputs = [x, hs];
    mul.outputs = [div.outputs[0]!];
    g.nodes[ci!] = null;
    g.nodes[di!] = null;
    n++;
  });
  return n;
}

/** 3: h -> Mul(s) -> Add(b) -> Conv: s into the Conv's weights, b/s added before it (or into its bias). */
function foldAffineIntoNext(g: Graph): number {
  let n = 0;
  g.nodes.forEach((mulNode, mi) => {
    const mul = scalarMul(g, mulNode);
    if (!mul || mul.s === 0 || !Number.isFinite(mul.s)) return;
    const ai = onlyReader(g, mulNode!.outputs[0]!);
    const add = nodeAt(g, ai, 'Add');
    const b = scalarAdd(g, add, mulNode!.outputs[0]!);
    if (b === null) return;
    const ci = onlyReader(g, add!.outputs[0]!);
    const conv = nodeAt(g, ci, 'Conv');
    if (!conv || conv.inputs[0] !== add!.outputs[0]) return;
    const p = convParams(g, conv);
    if (!p) return;
    const shift = b / mul.s;
    const [outC, inPerGroup, kh, kw] = p.w.dims as [number, number, number, number];
    const per = inPerGroup * kh * kw;
    for (let k = 0; k < p.w.data.length; k++) p.w.data[k]! *= mul.s;
    const intoBias = shift === 0 || zeroPads(conv);
    if (intoBias && shift !== 0) {
      // conv(h + c) = conv(h) + c * (sum of each output channel's weights) when no padding reads zeros.
      for (let o = 0; o < outC; o++) {
        let sum = 0;
        for (let k = 0; k < per; k++) sum += p.w.data[o * per + k]!;
        p.b[o]! += shift * sum;
      }
    }
    setConvParams(g, conv, p.w, p.b);
    if (intoBias) {
      conv.inputs[0] = mul.x;
      g.nodes[mi] = null;
      g.nodes[ai!] = null;
      (g.readers.get(mul.x) ?? []).push(ci!);
    } else {
      // The shift stays, as a 1x1 depthwise convolution (weight 1, bias = shift) rather than an Add: onnxruntime
      // keeps convolutions in its blocked NCHWc layout, where a scalar Add makes it convert the tensor out and
      // back in (measured on the recogniser: the Add and its two reorders were 14% of the run).
      const channels = inPerGroup * Number(intAttr(conv, 'group') ?? 1n);
      g.nodes[ai!] = {
        inputs: [
          mul.x,
          newConst(g, `${add!.outputs[0]}_one`, [channels, 1, 1, 1], new Float32Array(channels).fill(1)),
          newConst(g, `${add!.outputs[0]}_shift`, [channels], new Float32Array(channels).fill(shift)),
        ],
        outputs: [add!.outputs[0]!],
        name: `${add!.outputs[0]}__shift`,
        opType: 'Conv',
        domain: '',
        attrs: new Map([
          ['group', intAttrFields('group', channels)],
          ['kernel_shape', intsAttrFields('kernel_shape', [1, 1])],
        ]),
      };
      g.nodes[mi] = null;
      (g.readers.get(mul.x) ?? []).push(ai!);
    }
    n++;
  });
  return n;
}

function constNode(t: FloatTensor): Uint8Array {
  const attr: PbField[] = [strField(1, 'value'), { no: 5, wire: 2, bytes: writeFloatTensor(t) }, { no: 20, wire: 0, num: 4n }];
  return writeFields([strField(2, t.name), strField(3, `${t.name}__const`), strField(4, 'Constant'), { no: 5, wire: 2, bytes: writeFields(attr) }]);
}

/** The model with the folds applied, and what was folded. */
export function foldAffineBlocks(model: Uint8Array): { model: Uint8Array; report: FoldReport } {
  const top = readFields(model);
  const gi = top.findIndex((f) => f.no === 7);
  if (gi < 0) throw new RangeError('ONNX model without a graph');
  const graphFields = readFields(top[gi]!.bytes!);
  const g: Graph = { nodes: [], consts: new Map(), readers: new Map(), outputs: new Set() };
  const constIndex = new Map<string, number>();
  const raw: Uint8Array[] = [];
  for (const f of graphFields) {
    if (f.no === 12) {
      const name = readFields(f.bytes!).find((x) => x.no === 1);
      if (name?.bytes) g.outputs.add(new TextDecoder().decode(name.bytes));
    }
    if (f.no === 5) {
      const t = readFloatTensor(f.bytes!);
      if (t) g.consts.set(t.name, t);
    }
    if (f.no !== 1) continue;
    const node = readNode(f.bytes!);
    const i = g.nodes.length;
    g.nodes.push(node);
    raw.push(f.bytes!);
    if (node.opType === 'Constant' && node.domain === '') {
      const t = node.attrs.get('value')?.find((x) => x.no === 5)?.bytes;
      const ft = t ? readFloatTensor(t) : null;
      if (ft) {
        ft.name = node.outputs[0]!;
        g.consts.set(ft.name, ft);
        constIndex.set(ft.name, i);
      }
    }
    for (const x of node.inputs) {
      const list = g.readers.get(x) ?? [];
      list.push(i);
      g.readers.set(x, list);
    }
  }
  const before = g.nodes.length;
  const original = g.nodes.map((n) => (n ? { ...n, inputs: [...n.inputs], outputs: [...n.outputs] } : null));
  const report: FoldReport = { convAffine: 0, hardSwish: 0, affineIntoNext: 0, nodesBefore: before, nodesAfter: 0 };
  report.convAffine = foldConvAffine(g);
  report.hardSwish = foldHardSwish(g);
  report.affineIntoNext = foldAffineIntoNext(g);

  // Which constants are still read.
  const used = new Set<string>();
  for (const n of g.nodes) if (n && n.opType !== 'Constant') n.inputs.forEach((x) => used.add(x));
  for (const o of g.outputs) used.add(o);
  const nodeFields: PbField[] = [];
  const emitted = new Set<string>();
  // New constants first, so every node's inputs are defined before it.
  for (const [name, t] of g.consts) {
    if (!used.has(name) || constIndex.has(name) || !name.includes('__folded')) continue;
    nodeFields.push({ no: 1, wire: 2, bytes: constNode(t) });
    emitted.add(name);
  }
  g.nodes.forEach((n, i) => {
    if (!n) return;
    if (n.opType === 'Constant' && n.domain === '' && !n.outputs.some((o) => used.has(o))) return;
    const o = original[i];
    const same =
      o !== null &&
      o !== undefined &&
      o.opType === n.opType &&
      o.inputs.join('\u0000') === n.inputs.join('\u0000') &&
      o.outputs.join('\u0000') === n.outputs.join('\u0000');
    nodeFields.push({ no: 1, wire: 2, bytes: same ? raw[i]! : writeNode(n) });
  });
  report.nodesAfter = nodeFields.length;
  // Graph fields in their order, the node list replaced where the first node was.
  const firstNode = graphFields.findIndex((f) => f.no === 1);
  const rest = graphFields.filter((f) => f.no !== 1);
  const newGraph = [...rest.slice(0, firstNode), ...nodeFields, ...rest.slice(firstNode)];
  const newTop = top.map((f, i) => (i === gi ? { ...f, bytes: writeFields(newGraph) } : f));
  return { model: writeFields(newTop), report };
}
