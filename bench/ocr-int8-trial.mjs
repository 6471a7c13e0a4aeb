// Int8 trial for the PP-OCRv4 recogniser: node bench/ocr-int8-trial.mjs [--out FILE] [--calib N] [--test N]
// Builds a static-QDQ copy of the shipped recogniser (after the load-time folds of fold-affine-blocks.ts):
// per-output-channel symmetric int8 weights (7-bit, -63..63, so AVX2's vpmaddubsw cannot saturate), uint8
// activations with min/max scales from a calibration pass, int32 biases; QuantizeLinear/DequantizeLinear pairs that
// onnxruntime fuses into QLinearConv (1x1 convolutions with >= 240 input channels) and MatMulIntegerToFloat (the
// SVTR neck and the CTC head). Calibration and test crops are text lines rendered here with @napi-rs/canvas in the
// machine's fonts (random Han characters from the model's own key list, a fixed English word list, digits), made
// from a fixed seed; the test crops are not used for calibration. Prints run CPU of fp32 vs int8 on the test crops
// and how many lines read differently. --out FILE keeps the int8 model. Nothing is downloaded; the engine does not
// use the result (see the comment at the top of engine/vision/ocr/recognize-lines.ts for why).
import { readFileSync, writeFileSync } from 'node:fs';
import { createCanvas } from '@napi-rs/canvas';
import { foldAffineBlocks } from '../dist/engine/vision/ocr/fold-affine-blocks.js';
import { readFields, writeFields, readNode, writeNode, readFloatTensor, strField } from '../dist/engine/vision/ocr/onnx-protobuf.js';
import { ort } from '../dist/engine/vision/ocr/ocr-models.js';
import { locateModel } from '../dist/models/load-model.js';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const outFile = arg('--out', null);
const nCalib = Number(arg('--calib', 48));
const nTest = Number(arg('--test', 32));

// ---- graph reading and writing (ONNX protobuf field numbers as in onnx-protobuf.ts) ----
function parseModel(model) {
  const top = readFields(model);
  const gi = top.findIndex((f) => f.no === 7);
  const gf = readFields(top[gi].bytes);
  const nodes = [];
  const consts = new Map();
  for (const f of gf) {
    if (f.no === 1) {
      const n = readNode(f.bytes);
      nodes.push(n);
      if (n.opType === 'Constant') {
        const t = n.attrs.get('value')?.find((x) => x.no === 5)?.bytes;
        const ft = t ? readFloatTensor(t) : null;
        if (ft) consts.set(n.outputs[0], ft);
      }
    }
    if (f.no === 5) {
      const t = readFloatTensor(f.bytes);
      if (t) consts.set(t.name, t);
    }
  }
  return { top, gi, gf, nodes, consts };
}
const FLOAT = 1, UINT8 = 2, INT8 = 3, INT32 = 6, INT64 = 7;
const tensor = (name, type, dims, raw) =>
  writeFields([...dims.map((d) => ({ no: 1, wire: 0, num: BigInt(d) })), { no: 2, wire: 0, num: BigInt(type) }, strField(8, name), { no: 9, wire: 2, bytes: raw }]);
const f32bytes = (a) => new Uint8Array(Float32Array.from(a).buffer);
const intAttr = (name, v) => [strField(1, name), { no: 3, wire: 0, num: BigInt(v) }, { no: 20, wire: 0, num: 2n }];
const floatOutput = (name) =>
  writeFields([strField(1, name), { no: 2, wire: 2, bytes: writeFields([{ no: 1, wire: 2, bytes: writeFields([{ no: 1, wire: 0, num: BigInt(FLOAT) }]) }]) }]);
function withGraph(g, gf, opset) {
  const top = g.top.map((f, i) => (i === g.gi ? { ...f, bytes: writeFields(gf) } : f));
  if (opset) {
    for (let i = 0; i < top.length; i++) {
      if (top[i].no !== 8) continue;
      const fs = readFields(top[i].bytes);
      const domain = fs.find((x) => x.no === 1);
      if (!domain || domain.bytes.length === 0) top[i] = { ...top[i], bytes: writeFields([...fs.filter((x) => x.no !== 2), { no: 2, wire: 0, num: BigInt(opset) }]) };
    }
    top.push({ no: 8, wire: 2, bytes: writeFields([strField(1, 'com.microsoft'), { no: 2, wire: 0, num: 1n }]) });
  }
  return writeFields(top);
}
const withOutputs = (g, names) => withGraph(g, [...g.gf, ...names.map((n) => ({ no: 12, wire: 2, bytes: floatOutput(n) }))], 0);

/** Which convolutions and matmuls get int8: the ones where it paid in the trial (see recognize-lines.ts). */
function pickTargets(g) {
  const convs = g.nodes.filter((n) => {
    const w = n.opType === 'Conv' ? g.consts.get(n.inputs[1]) : undefined;
    return w && w.dims.length === 4 && w.dims[1] >= 240 && w.dims[2] === 1 && w.dims[3] === 1;
  });
  const matmuls = g.nodes.filter((n) => n.opType === 'MatMul' && g.consts.get(n.inputs[1])?.dims.length === 2);
  return { convs, matmuls };
}

/**
 * The QDQ graph. QLinearConv needs onnx opset >= 10 (the recogniser is opset 9): attribute-form Slice nodes are
 * rewritten to the input form; Q/DQ nodes use the com.microsoft domain, which takes a per-channel axis at any opset.
 */
function quantizeGraph(g, convs, matmuls, ranges, wmax = 63) {
  const inits = [];
  const pre = [];
  const after = new Map();
  const qdq = new Map();
  const node = (op, inputs, outputs, attrs = new Map()) => ({ inputs, outputs, name: `${outputs[0]}_${op}`, opType: op, domain: op === 'QuantizeLinear' || op === 'DequantizeLinear' ? 'com.microsoft' : '', attrs });
  const activation = (t) => {
    if (qdq.has(t)) return qdq.get(t);
    const [lo0, hi0] = ranges.get(t);
    const lo = Math.min(lo0, 0);
    const hi = Math.max(hi0, 0);
    const s = (hi - lo) / 255 || 1;
    const zp = Math.max(0, Math.min(255, Math.round(-lo / s)));
    inits.push(tensor(`${t}_s`, FLOAT, [], f32bytes([s])), tensor(`${t}_zp`, UINT8, [], Uint8Array.of(zp)));
    after.set(t, [node('QuantizeLinear', [t, `${t}_s`, `${t}_zp`], [`${t}_q`]), node('DequantizeLinear', [`${t}_q`, `${t}_s`, `${t}_zp`], [`${t}_dq`])]);
    qdq.set(t, { name: `${t}_dq`, s });
    return qdq.get(t);
  };
  const replaced = new Map();
  const weights = (w, inner, axisLen, at) => {
    // at(o, k): index of element k of output channel o
    const q = new Int8Array(w.data.length);
    const sw = new Float32Array(axisLen);
    for (let o = 0; o < axisLen; o++) {
      let m = 0;
      for (let k = 0; k < inner; k++) m = Math.max(m, Math.abs(w.data[at(o, k)]));
      sw[o] = m / wmax || 1e-8;
      for (let k = 0; k < inner; k++) q[at(o, k)] = Math.round(w.data[at(o, k)] / sw[o]);
    }
    return { q, sw };
  };
  for (const c of convs) {
    activation(c.inputs[0]);
    activation(c.outputs[0]);
  }
  for (const c of convs) {
    const w = g.consts.get(c.inputs[1]);
    const outC = w.dims[0];
    const per = w.data.length / outC;
    const { q, sw } = weights(w, per, outC, (o, k) => o * per + k);
    const p = `${c.outputs[0]}_w`;
    const sx = qdq.get(c.inputs[0]).s;
    const b = c.inputs[2] ? g.consts.get(c.inputs[2]).data : new Float32Array(outC);
    const bs = Float32Array.from(sw, (x) => x * sx);
    const bq = Int32Array.from(b, (x, o) => Math.round(x / bs[o]));
    inits.push(
      tensor(`${p}q`, INT8, w.dims, new Uint8Array(q.buffer)),
      tensor(`${p}s`, FLOAT, [outC], f32bytes(sw)),
      tensor(`${p}zp`, INT8, [outC], new Uint8Array(outC)),
      tensor(`${p}bq`, INT32, [outC], new Uint8Array(bq.buffer)),
      tensor(`${p}bs`, FLOAT, [outC], f32bytes(bs)),
      tensor(`${p}bzp`, INT32, [outC], new Uint8Array(4 * outC)),
    );
    pre.push(node('DequantizeLinear', [`${p}q`, `${p}s`, `${p}zp`], [`${p}dq`], new Map([['axis', intAttr('axis', 0)]])));
    pre.push(node('DequantizeLinear', [`${p}bq`, `${p}bs`, `${p}bzp`], [`${p}bdq`], new Map([['axis', intAttr('axis', 0)]])));
    replaced.set(c, [`${p}dq`, `${p}bdq`]);
  }
  for (const m of matmuls) {
    activation(m.inputs[0]);
    const w = g.consts.get(m.inputs[1]);
    const [K, N] = w.dims;
    const { q, sw } = weights(w, K, N, (j, k) => k * N + j);
    const p = `${m.outputs[0]}_mw`;
    inits.push(tensor(`${p}q`, INT8, w.dims, new Uint8Array(q.buffer)), tensor(`${p}s`, FLOAT, [N], f32bytes(sw)), tensor(`${p}zp`, INT8, [N], new Uint8Array(N)));
    pre.push(node('DequantizeLinear', [`${p}q`, `${p}s`, `${p}zp`], [`${p}dq`], new Map([['axis', intAttr('axis', 1)]])));
    replaced.set(m, [`${p}dq`]);
  }
  const ints = (n, name) => {
    const out = [];
    for (const f of n.attrs.get(name) ?? []) {
      if (f.no !== 8) continue;
      if (f.wire === 0) out.push(BigInt.asIntN(64, f.num));
      else {
        let v = 0n;
        let sh = 0n;
        for (const x of f.bytes) {
          v |= BigInt(x & 0x7f) << sh;
          if (x < 0x80) {
            out.push(BigInt.asIntN(64, v));
            v = 0n;
            sh = 0n;
          } else sh += 7n;
        }
      }
    }
    return out;
  };
  const nodes = [];
  for (const n0 of g.nodes) {
    const n = { ...n0, inputs: n0.inputs.map((i) => qdq.get(i)?.name ?? i) };
    if (n.opType === 'Slice' && n.inputs.length === 1) {
      for (const a of ['starts', 'ends', 'axes']) {
        if (!n.attrs.has(a)) continue;
        const v = ints(n, a);
        inits.push(tensor(`${n.outputs[0]}_${a}`, INT64, [v.length], new Uint8Array(new BigInt64Array(v).buffer)));
        n.inputs.push(`${n.outputs[0]}_${a}`);
      }
      n.attrs = new Map();
    }
    const r = replaced.get(n0);
    if (r) {
      n.inputs[1] = r[0];
      if (r[1]) n.inputs[2] = r[1];
    }
    nodes.push(n);
    for (const o of n.outputs) nodes.push(...(after.get(o) ?? []));
  }
  const produced = new Set(g.nodes.flatMap((n) => n.outputs));
  const first = [...after].filter(([t]) => !produced.has(t)).flatMap(([, list]) => list);
  const rest = g.gf.filter((f) => f.no !== 1);
  const at = g.gf.findIndex((f) => f.no === 1);
  const all = [...pre, ...first, ...nodes].map((n) => ({ no: 1, wire: 2, bytes: writeNode(n) }));
  return withGraph(g, [...rest.slice(0, at), ...all, ...inits.map((b) => ({ no: 5, wire: 2, bytes: b })), ...rest.slice(at)], 10);
}

// ---- rendered line crops ----
function* lineCrops(n, keys) {
  let seed = 12345;
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const han = keys.filter((k) => /\p{Script=Han}/u.test(k)).slice(0, 4000);
  const words = 'the of and to in is for on that with as by this are from be at or an was it which data model results table figure section page total amount date name address company number registered capital business scope legal representative report analysis method value'.split(' ');
  const fonts = ['sans-serif', 'serif', '"Noto Sans CJK SC"', '"Noto Serif CJK SC"'];
  for (let i = 0; i < n; i++) {
    let text = '';
    const len = 3 + Math.floor(rnd() * 30);
    for (let k = 0; k < len; k++) {
      if (i % 3 === 0 || (i % 3 === 2 && rnd() < 0.5)) text += han[Math.floor(rnd() * han.length)];
      else text += (k ? ' ' : '') + (rnd() < 0.15 ? String(Math.floor(rnd() * 10000)) : words[Math.floor(rnd() * words.length)]) + (rnd() < 0.1 ? ',' : '');
    }
    const font = `${rnd() < 0.2 ? 'bold ' : ''}${28 + Math.floor(rnd() * 10)}px ${fonts[i % fonts.length]}`;
    const probe = createCanvas(8, 8).getContext('2d');
    probe.font = font;
    const w = Math.min(1600, Math.max(16, Math.ceil(probe.measureText(text).width) + 8));
    const ctx = createCanvas(w, 48).getContext('2d');
    const bg = 200 + Math.floor(rnd() * 55);
    const fg = Math.floor(rnd() * 90);
    ctx.fillStyle = `rgb(${bg},${bg - Math.floor(rnd() * 20)},${bg})`;
    ctx.fillRect(0, 0, w, 48);
    ctx.fillStyle = `rgb(${fg},${fg},${fg + Math.floor(rnd() * 60)})`;
    ctx.font = font;
    ctx.textBaseline = 'middle';
    ctx.fillText(text, 4, 24 + (rnd() - 0.5) * 4);
    const d = ctx.getImageData(0, 0, w, 48).data;
    const padW = Math.max(64, w);
    const plane = 48 * padW;
    const data = new Float32Array(3 * plane);
    for (let y = 0; y < 48; y++) {
      for (let x = 0; x < w; x++) {
        const o = (y * w + x) * 4;
        const noise = (rnd() - 0.5) * 16;
        const t = y * padW + x;
        data[t] = (d[o + 2] + noise) / 127.5 - 1;
        data[t + plane] = (d[o + 1] + noise) / 127.5 - 1;
        data[t + 2 * plane] = (d[o] + noise) / 127.5 - 1;
      }
    }
    yield { text, input: new ort.Tensor('float32', data, [1, 3, 48, padW]) };
  }
}

// ---- trial ----
const keys = readFileSync(await locateModel('ocr-keys'), 'utf8').split(/\r?\n/).filter(Boolean);
const charset = ['', ...keys, ' '];
const folded = foldAffineBlocks(readFileSync(await locateModel('ocr-rec'))).model;
const g = parseModel(folded);
const { convs, matmuls } = pickTargets(g);
const names = [...new Set([...convs.flatMap((c) => [c.inputs[0], c.outputs[0]]), ...matmuls.map((m) => m.inputs[0])])];
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const opts = { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all', enableCpuMemArena: false, enableMemPattern: false };
let c0 = cpuMs();
const calib = await ort.InferenceSession.create(withOutputs(g, names), { ...opts, graphOptimizationLevel: 'basic' });
const ranges = new Map(names.map((n) => [n, [Infinity, -Infinity]]));
const crops = [...lineCrops(nCalib + nTest, keys)];
for (const c of crops.slice(0, nCalib)) {
  const r = await calib.run({ [calib.inputNames[0]]: c.input });
  for (const n of names) {
    const rg = ranges.get(n);
    for (const v of r[n].data) {
      if (v < rg[0]) rg[0] = v;
      if (v > rg[1]) rg[1] = v;
    }
  }
}
const int8 = quantizeGraph(g, convs, matmuls, ranges);
console.log(`int8 model: ${convs.length} convolutions, ${matmuls.length} matmuls, ${(int8.length / 1e6).toFixed(1)} MB; built (with ${nCalib} calibration crops) in ${((cpuMs() - c0) / 1000).toFixed(1)} s CPU`);
if (outFile) writeFileSync(outFile, int8);

const greedy = (out) => {
  const [, T, C] = out.dims;
  const d = out.data;
  let s = '';
  let prev = 0;
  for (let t = 0; t < T; t++) {
    let b = 0;
    for (let c = 1; c < C; c++) if (d[t * C + c] > d[t * C + b]) b = c;
    if (b !== prev && b) s += charset[b];
    prev = b;
  }
  return s;
};
const test = crops.slice(nCalib);
const results = {};
for (const [label, model] of [['fp32', folded], ['int8', int8]]) {
  const s = await ort.InferenceSession.create(model, opts);
  for (const c of test.slice(0, 2)) await s.run({ [s.inputNames[0]]: c.input });
  c0 = cpuMs();
  const texts = [];
  for (const c of test) texts.push(greedy((await s.run({ [s.inputNames[0]]: c.input }))[s.outputNames[0]]));
  results[label] = { cpu: cpuMs() - c0, texts };
}
const same = (a, b) => a.replace(/ /g, '') === b.replace(/ /g, '');
for (const label of ['fp32', 'int8']) {
  const r = results[label];
  const exact = r.texts.filter((t, i) => same(t, test[i].text)).length;
  const differ = r.texts.filter((t, i) => t !== results.fp32.texts[i]).length;
  console.log(`${label}  run CPU ${r.cpu.toFixed(0).padStart(6)} ms on ${test.length} crops  read exactly ${exact}/${test.length}  differ from fp32 ${differ}`);
}
console.log(`int8 run CPU ${(100 * (results.int8.cpu / results.fp32.cpu - 1)).toFixed(1)}% vs fp32`);
