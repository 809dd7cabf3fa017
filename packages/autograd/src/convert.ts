/**
 * Float-type conversion of a whole model: fp16 -> fp32 (so published fp16 models can be differentiated)
 * or fp32 -> fp64 (for double-precision gradient checks). Converts initializers, Constant and
 * ConstantOfShape values, Cast targets, and input/output/value_info types.
 *
 * fp32 -> fp64 keeps *index arithmetic* in float32: float tensors that end in an integer (a Cast to an
 * integer type, a comparison) and are computed from shapes, integer tensors and scalar constants only,
 * e.g. T5's relative-position buckets (`trunc(log(d / 8) / log(16) * 8)`). Promoting those to double would
 * change the function, not just its precision: the exporter's float32-rounded `log(16)` makes the double
 * chain give 1.99999999 at d = 16, which truncates to bucket 1 where the float32 model has 2. Where such a
 * float32 tensor also feeds the double part, a Cast to double (exact) is inserted.
 *
 * fp32 -> fp64 also writes every float64 Erf in standard ops (onnxruntime has no float64 Erf kernel, and
 * BERT-family GELUs use Erf): see `doubleErf` below.
 */
import {
  DataType,
  type GraphProto,
  type IGraphProto,
  type ITensorProto,
  type ModelProto,
  makeTensor,
  num,
  onnx,
  type TensorProto,
  tensorData,
  tensorDims,
} from "./proto.js";

/** IEEE 754 half -> number. */
export function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 31) return fraction ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

/** number -> IEEE 754 half (round to nearest even). */
export function floatToHalf(value: number): number {
  const f32 = new Float32Array([value]);
  const u = new Uint32Array(f32.buffer)[0] as number;
  const sign = (u >>> 16) & 0x8000;
  const exp = ((u >>> 23) & 0xff) - 127 + 15;
  let mant = u & 0x7fffff;
  if (((u >>> 23) & 0xff) === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  if (exp >= 31) return sign | 0x7c00;
  if (exp <= 0) {
    if (exp < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - exp;
    const half = mant >> shift;
    const rest = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    return sign | (half + (rest > mid || (rest === mid && half & 1) ? 1 : 0));
  }
  const half = (exp << 10) | (mant >> 13);
  const rest = mant & 0x1fff;
  return sign | (half + (rest > 0x1000 || (rest === 0x1000 && half & 1) ? 1 : 0));
}

type Node = NonNullable<IGraphProto["node"]>[number];

const FLOAT_TYPES: ReadonlySet<number> = new Set([DataType.FLOAT, DataType.FLOAT16, DataType.DOUBLE]);
const BOOL_OUTPUT = new Set([
  "Equal",
  "Less",
  "Greater",
  "LessOrEqual",
  "GreaterOrEqual",
  "Not",
  "And",
  "Or",
  "Xor",
  "IsNaN",
  "IsInf",
]);
const INT64_OUTPUT = new Set(["Shape", "Size", "NonZero", "ArgMax", "ArgMin"]);
/** Ops whose output depends on their input's shape only, never on its values (or precision). */
const SHAPE_ONLY = new Set(["Shape", "Size"]);

function convertTensor(t: ITensorProto, from: number, to: number): TensorProto | undefined {
  if (t.dataType !== from) return undefined;
  const data = tensorData(t);
  const values =
    from === DataType.FLOAT16 ? Array.from(data as Uint16Array, halfToFloat) : Array.from(data as Float32Array);
  const out =
    to === DataType.DOUBLE
      ? Float64Array.from(values)
      : to === DataType.FLOAT16
        ? Uint16Array.from(values, floatToHalf)
        : Float32Array.from(values);
  return makeTensor(t.name ?? "", out, tensorDims(t), to);
}

const elementCount = (t: ITensorProto) => tensorDims(t).reduce((a, b) => a * b, 1);
const hasSubgraph = (n: Node) => (n.attribute ?? []).some((a) => a.g || (a.graphs ?? []).length > 0);
const isStandardDomain = (n: Node) => !n.domain || n.domain === "ai.onnx";
const attrNamed = (n: Node, name: string) => (n.attribute ?? []).find((a) => a.name === name);

/**
 * Element types of a graph's tensors as far as they follow from its inputs, initializers, value infos
 * and standard-op typing rules; tensors of unknown type (custom domains, control flow) are absent.
 */
function inferElemTypes(graph: IGraphProto, outer: ReadonlyMap<string, number> = new Map()): Map<string, number> {
  const types = new Map<string, number>(outer);
  for (const v of graph.input ?? []) {
    const t = v.type?.tensorType?.elemType;
    if (t) types.set(v.name ?? "", t);
  }
  for (const t of graph.initializer ?? []) if (t.dataType) types.set(t.name ?? "", t.dataType);
  const declared = new Map<string, number>();
  for (const v of [...(graph.valueInfo ?? []), ...(graph.output ?? [])]) {
    const t = v.type?.tensorType?.elemType;
    if (t) declared.set(v.name ?? "", t);
  }
  const typeOf = (name: string | undefined) => (name ? types.get(name) : undefined);
  for (const n of topologicalOrder(graph.node ?? [])) {
    const op = n.opType ?? "";
    const inputs = n.input ?? [];
    const first = typeOf(inputs.find((x) => x !== ""));
    let outs: Array<number | undefined>;
    if (!isStandardDomain(n) || hasSubgraph(n)) outs = [];
    else if (op === "Constant") {
      const a = (n.attribute ?? [])[0];
      outs = [
        a?.t
          ? (a.t.dataType ?? undefined)
          : a?.name === "value_float" || a?.name === "value_floats"
            ? DataType.FLOAT
            : a?.name === "value_int" || a?.name === "value_ints"
              ? DataType.INT64
              : undefined,
      ];
    } else if (op === "ConstantOfShape") outs = [attrNamed(n, "value")?.t?.dataType ?? DataType.FLOAT];
    else if (op === "Cast") outs = [num(attrNamed(n, "to")?.i)];
    else if (op === "CastLike") outs = [typeOf(inputs[1])];
    else if (BOOL_OUTPUT.has(op)) outs = [DataType.BOOL];
    else if (INT64_OUTPUT.has(op)) outs = [DataType.INT64];
    else if (op === "Where") outs = [typeOf(inputs[1]) ?? typeOf(inputs[2])];
    else if (op === "OneHot") outs = [typeOf(inputs[2])];
    else if (op === "TopK") outs = [first, DataType.INT64];
    else if (op === "Unique") outs = [first, DataType.INT64, DataType.INT64, DataType.INT64];
    else if (op === "Dropout") outs = [first, DataType.BOOL];
    else if (op === "DequantizeLinear") outs = [typeOf(inputs[1])];
    else if (op === "QuantizeLinear") outs = [typeOf(inputs[2]) ?? DataType.UINT8];
    else if (op === "DynamicQuantizeLinear") outs = [DataType.UINT8, DataType.FLOAT, DataType.UINT8];
    else if (op === "MatMulInteger" || op === "ConvInteger") outs = [DataType.INT32];
    else if (/^Random(Normal|Uniform)$/.test(op)) outs = [num(attrNamed(n, "dtype")?.i ?? DataType.FLOAT)];
    else if (/^(EyeLike|Bernoulli|Random(Normal|Uniform)Like)$/.test(op)) {
      const dtype = attrNamed(n, "dtype")?.i;
      outs = [dtype !== undefined && dtype !== null ? num(dtype) : first];
    } else outs = (n.output ?? []).map(() => first);
    (n.output ?? []).forEach((o, k) => {
      const t = declared.get(o) ?? outs[k];
      if (o && t) types.set(o, t);
    });
  }
  return types;
}

/** Nodes in an order where producers come before consumers (ONNX requires it; surgery may not keep it). */
function topologicalOrder(nodes: readonly Node[]): Node[] {
  const producer = new Map<string, number>();
  nodes.forEach((n, k) => {
    for (const o of n.output ?? []) if (o) producer.set(o, k);
  });
  const state = new Uint8Array(nodes.length); // 0 new, 1 visiting, 2 done
  const order: Node[] = [];
  for (let root = 0; root < nodes.length; root++) {
    if (state[root] !== 0) continue;
    // Iterative DFS: a deep transformer graph would overflow the stack recursively.
    const stack: Array<{ k: number; next: number }> = [{ k: root, next: 0 }];
    state[root] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { k: number; next: number };
      const inputs = nodes[top.k]?.input ?? [];
      if (top.next < inputs.length) {
        const p = producer.get(inputs[top.next++] as string);
        if (p !== undefined && state[p] === 0) {
          state[p] = 1;
          stack.push({ k: p, next: 0 });
        }
        continue;
      }
      state[top.k] = 2;
      order.push(nodes[top.k] as Node);
      stack.pop();
    }
  }
  return order;
}

/** Every tensor name read inside a node's subgraphs (outer-scope references among them). */
function subgraphReads(n: Node, out = new Set<string>()): Set<string> {
  for (const a of n.attribute ?? [])
    for (const g of [...(a.g ? [a.g] : []), ...(a.graphs ?? [])])
      for (const inner of g.node ?? []) {
        for (const x of inner.input ?? []) if (x) out.add(x);
        subgraphReads(inner, out);
      }
  return out;
}

function renameSubgraphReads(n: Node, rename: ReadonlyMap<string, string>): void {
  for (const a of n.attribute ?? [])
    for (const g of [...(a.g ? [a.g] : []), ...(a.graphs ?? [])])
      for (const inner of g.node ?? []) {
        inner.input = (inner.input ?? []).map((x) => rename.get(x) ?? x);
        renameSubgraphReads(inner, rename);
      }
}

/** What a graph's analysis tells its subgraphs about the names they may read from the outer scope. */
interface Scope {
  /** Element types (before conversion). */
  types: Map<string, number>;
  /** Names whose values depend on float data, or that subgraphs read as converted tensors. */
  data: Set<string>;
}

/**
 * The `from`-typed tensors to keep in `from` (see the module comment): those that reach an integer result
 * (a node with float inputs and no float output, other than Shape/Size) through float tensors, and whose
 * value depends on no float data -- a float graph input, a non-scalar float initializer or Constant (a
 * weight), an op of unknown semantics, or an outer-scope tensor that is data. Closed forward, so every
 * node reads inputs of one float type.
 */
function indexArithmetic(graph: IGraphProto, from: number, outer: Scope): { kept: Set<string>; scope: Scope } {
  const nodes = topologicalOrder(graph.node ?? []);
  const types = inferElemTypes(graph, outer.types);
  const isFrom = (x: string | undefined) => x !== undefined && x !== "" && types.get(x) === from;
  const isFloat = (x: string) => FLOAT_TYPES.has(types.get(x) ?? 0);

  const data = new Set<string>(outer.data);
  for (const v of graph.input ?? []) if (isFrom(v.name ?? "")) data.add(v.name ?? "");
  for (const t of graph.initializer ?? []) if (t.dataType === from && elementCount(t) > 1) data.add(t.name ?? "");
  for (const n of nodes) {
    const outputs = (n.output ?? []).filter((o) => o);
    const constant = n.opType === "Constant" ? (n.attribute ?? [])[0]?.t : undefined;
    if (
      !isStandardDomain(n) ||
      hasSubgraph(n) ||
      (constant && constant.dataType === from && elementCount(constant) > 1) ||
      (!SHAPE_ONLY.has(n.opType ?? "") && (n.input ?? []).some((x) => data.has(x)))
    )
      for (const o of outputs) data.add(o);
  }

  // Backward from the integer results through untainted `from` tensors.
  const producer = new Map<string, Node>();
  for (const n of nodes) for (const o of n.output ?? []) if (o) producer.set(o, n);
  const reached = new Set<string>();
  const stack: string[] = [];
  const visit = (x: string) => {
    if (isFrom(x) && !data.has(x) && !reached.has(x)) {
      reached.add(x);
      stack.push(x);
    }
  };
  for (const n of nodes) {
    if (SHAPE_ONLY.has(n.opType ?? "") || !isStandardDomain(n) || hasSubgraph(n)) continue;
    const outputs = (n.output ?? []).filter((o) => o);
    if (outputs.length === 0 || outputs.some((o) => !types.has(o) || isFloat(o))) continue;
    for (const x of n.input ?? []) visit(x);
  }
  while (stack.length > 0) {
    const p = producer.get(stack.pop() as string);
    if (p !== undefined) for (const x of p.input ?? []) visit(x);
  }

  // Forward closure: the float type of a node's outputs follows its inputs unless the node sets it.
  const kept = new Set<string>();
  for (const t of graph.initializer ?? []) if (reached.has(t.name ?? "")) kept.add(t.name ?? "");
  const setsType = (n: Node) =>
    n.opType === "Constant" ||
    n.opType === "ConstantOfShape" ||
    n.opType === "Cast" ||
    n.opType === "CastLike" ||
    /^(EyeLike|Bernoulli|Random)/.test(n.opType ?? "");
  for (const n of nodes) {
    const outputs = (n.output ?? []).filter((o) => isFrom(o));
    if (outputs.length === 0) continue;
    if (setsType(n)) {
      for (const o of outputs) if (reached.has(o)) kept.add(o);
      continue;
    }
    if (!isStandardDomain(n) || hasSubgraph(n)) continue;
    const floatInputs = (n.input ?? []).filter((x) => isFrom(x));
    if (floatInputs.length > 0 && floatInputs.every((x) => kept.has(x))) for (const o of outputs) kept.add(o);
  }
  return { kept, scope: { types, data } };
}

/**
 * Make the graph's nodes read `to`-typed copies of kept `from` tensors wherever they mix them with
 * converted ones (or produce converted outputs, or read them in subgraphs): one Cast per tensor, placed
 * before its first such reader. Graph outputs that are kept get renamed and re-emitted through a Cast.
 */
function castKeptIntoConverted(
  graph: IGraphProto,
  kept: Set<string>,
  from: number,
  to: number,
  types: ReadonlyMap<string, number>,
): Map<string, string> {
  const used = new Set<string>();
  for (const v of [...(graph.input ?? []), ...(graph.output ?? []), ...(graph.valueInfo ?? [])]) used.add(v.name ?? "");
  for (const t of graph.initializer ?? []) used.add(t.name ?? "");
  for (const n of graph.node ?? [])
    for (const x of [...(n.input ?? []), ...(n.output ?? []), n.name ?? ""]) used.add(x);
  const fresh = (hint: string) => {
    let name = hint;
    for (let k = 1; used.has(name); k++) name = `${hint}_${k}`;
    used.add(name);
    return name;
  };
  const castNode = (input: string, output: string, target: number) =>
    onnx.NodeProto.create({
      opType: "Cast",
      input: [input],
      output: [output],
      name: fresh(`${output}/cast_node`),
      attribute: [onnx.AttributeProto.create({ name: "to", type: onnx.AttributeProto.AttributeType.INT, i: target })],
    });

  const isFrom = (x: string) => x !== "" && types.get(x) === from;
  const promoted = new Map<string, string>();
  const out: Node[] = [];
  const promote = (x: string) => {
    let name = promoted.get(x);
    if (name === undefined) {
      name = fresh(`${x}/${to === DataType.DOUBLE ? "double" : "converted"}`);
      promoted.set(x, name);
      out.push(castNode(x, name, to));
    }
    return name;
  };
  for (const n of graph.node ?? []) {
    const inputs = n.input ?? [];
    const keptInputs = inputs.filter((x) => kept.has(x));
    const reads = hasSubgraph(n) ? [...subgraphReads(n)].filter((x) => kept.has(x)) : [];
    const producesConverted = (n.output ?? []).some((o) => isFrom(o) && !kept.has(o));
    const readsConverted = inputs.some((x) => isFrom(x) && !kept.has(x));
    const mixes =
      keptInputs.length > 0 && (producesConverted || readsConverted || !isStandardDomain(n) || hasSubgraph(n));
    if (mixes) n.input = inputs.map((x) => (kept.has(x) ? promote(x) : x));
    if (reads.length > 0) renameSubgraphReads(n, new Map(reads.map((x) => [x, promote(x)])));
    out.push(n);
  }
  for (const v of graph.output ?? []) {
    const name = v.name ?? "";
    if (!kept.has(name)) continue;
    // The producer writes a renamed float32 tensor; the graph output becomes its Cast.
    const inner = fresh(`${name}/${from === DataType.FLOAT ? "float32" : "kept"}`);
    for (const n of out) {
      n.output = (n.output ?? []).map((o) => (o === name ? inner : o));
      n.input = (n.input ?? []).map((x) => (x === name ? inner : x));
    }
    kept.delete(name);
    kept.add(inner);
    out.push(castNode(inner, name, to));
  }
  graph.node = out;
  return promoted;
}

/**
 * Retype a graph and its subgraphs (If/Loop/Scan bodies) in place; with `keepIndex`, index arithmetic
 * (of this graph and, separately, of each subgraph) stays `from`. `outer`: what the enclosing graph knows.
 */
function convertGraph(
  graph: IGraphProto,
  from: number,
  to: number,
  keepIndex: boolean,
  outer: Scope = { types: new Map(), data: new Set() },
): void {
  let keep = new Set<string>();
  let scope = outer;
  if (keepIndex) {
    const analysis = indexArithmetic(graph, from, outer);
    keep = analysis.kept;
    scope = analysis.scope;
    if (keep.size > 0) {
      const promoted = castKeptIntoConverted(graph, keep, from, to, scope.types);
      // Subgraphs read promoted copies (converted) and never the kept float32 originals.
      for (const name of promoted.values()) {
        scope.types.set(name, from);
        scope.data.add(name);
      }
      for (const name of keep) scope.data.add(name);
    }
  }
  graph.initializer = (graph.initializer ?? []).map((t) =>
    keep.has(t.name ?? "") ? t : (convertTensor(t, from, to) ?? t),
  );
  const retype = (v: NonNullable<IGraphProto["input"]>[number]) => {
    const tt = v.type?.tensorType;
    if (tt && tt.elemType === from && !keep.has(v.name ?? "")) tt.elemType = to;
  };
  for (const list of [graph.input, graph.output, graph.valueInfo]) for (const v of list ?? []) retype(v);
  for (const n of graph.node ?? []) {
    const keepsType = (n.output ?? []).some((o) => keep.has(o));
    for (const a of n.attribute ?? []) {
      if (a.t && !keepsType) {
        const converted = convertTensor(a.t, from, to);
        if (converted) a.t = converted;
      }
      for (const g of [...(a.g ? [a.g] : []), ...(a.graphs ?? [])]) convertGraph(g, from, to, keepIndex, scope);
      if (n.opType === "Cast" && a.name === "to" && num(a.i) === from && !keepsType) a.i = to;
    }
  }
}

/** Options of {@link convertFloatType}. */
export interface ConvertFloatOptions {
  /**
   * Keep index arithmetic (float tensors computed from shapes, integers and scalar constants that end in
   * an integer, e.g. T5's relative-position buckets) in `from`, so the converted graph computes the same
   * indices as the original. Default: true for FLOAT -> DOUBLE (onnxruntime has float32 kernels for every
   * op a float32 graph uses), false otherwise (its CPU kernels lack float16 Log, Div, ...).
   */
  keepIndexArithmetic?: boolean;
}

/**
 * A copy of `model` with every `from`-typed float tensor and type annotation changed to `to` (subgraphs
 * too), except index arithmetic (see {@link ConvertFloatOptions.keepIndexArithmetic}).
 */
export function convertFloatType(
  model: ModelProto,
  from: number,
  to: number,
  options: ConvertFloatOptions = {},
): ModelProto {
  const copy = onnx.ModelProto.decode(onnx.ModelProto.encode(model).finish());
  const keepIndex = options.keepIndexArithmetic ?? (from === DataType.FLOAT && to === DataType.DOUBLE);
  convertGraph(copy.graph as GraphProto, from, to, keepIndex && from !== to);
  if (to === DataType.DOUBLE) doubleErf(copy.graph as GraphProto);
  return copy;
}

/** Terms of erf's Taylor series (|x| <= ERF_SPLIT) and levels of erfc's continued fraction (|x| > ERF_SPLIT). */
const ERF_TERMS = 40;
const ERF_SPLIT = 2.5;

/**
 * onnxruntime has no float64 Erf kernel (BERT's GELU is `x/2 (1 + erf(x / sqrt 2))`): each float64 Erf
 * becomes standard ops computing erf in double -- the Taylor series 2x/sqrt(pi) sum (-x^2)^n / (n! (2n+1))
 * (40 terms, Horner) for |x| <= 2.5, and 1 - erfc(|x|) with erfc's continued fraction
 * exp(-x^2) / (sqrt(pi) (x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))) (40 levels) beyond, signed. The two agree
 * within 2e-15 at 2.5 and with erf to about 1e-15 everywhere; each branch reads a clamped copy of x, so the
 * branch not taken stays finite (its gradient is 0, never 0 x inf).
 */
function doubleErf(graph: GraphProto): void {
  const types = inferElemTypes(graph);
  const used = new Set<string>();
  for (const t of graph.initializer ?? []) used.add(t.name ?? "");
  for (const n of graph.node ?? [])
    for (const x of [...(n.input ?? []), ...(n.output ?? []), n.name ?? ""]) used.add(x);
  for (const v of [...(graph.input ?? []), ...(graph.output ?? [])]) used.add(v.name ?? "");
  let counter = 0;
  const fresh = (hint: string) => {
    let name: string;
    do name = `erf64/${hint}_${counter++}`;
    while (used.has(name));
    used.add(name);
    return name;
  };
  const constants = new Map<number, string>();
  const scalar = (value: number) => {
    let name = constants.get(value);
    if (name === undefined) {
      name = fresh("const");
      graph.initializer.push(makeTensor(name, Float64Array.of(value), [], DataType.DOUBLE));
      constants.set(value, name);
    }
    return name;
  };
  const out: Node[] = [];
  for (const n of graph.node as Node[]) {
    const x = n.input?.[0] ?? "";
    if (n.opType !== "Erf" || !isStandardDomain(n) || types.get(x) !== DataType.DOUBLE) {
      out.push(n);
      continue;
    }
    const op = (opType: string, inputs: string[], output = fresh(opType)) => {
      out.push(onnx.NodeProto.create({ opType, input: inputs, output: [output], name: fresh(`${opType}_node`) }));
      return output;
    };
    const a = op("Abs", [x]);
    const small = op("Not", [op("Greater", [a, scalar(ERF_SPLIT)])]);
    // Small |x|: 2x/sqrt(pi) * sum_n c_n y^n, y = x^2, c_n = (-1)^n / (n! (2n + 1)).
    const xs = op("Where", [small, x, scalar(0)]);
    const y = op("Mul", [xs, xs]);
    const coefficient = (k: number) => {
      let c = 1;
      for (let j = 1; j <= k; j++) c /= j;
      return ((k % 2 === 0 ? 1 : -1) * c) / (2 * k + 1);
    };
    let p = scalar(coefficient(ERF_TERMS));
    for (let k = ERF_TERMS - 1; k >= 0; k--) p = op("Add", [op("Mul", [p, y]), scalar(coefficient(k))]);
    const series = op("Mul", [op("Mul", [xs, scalar(2 / Math.sqrt(Math.PI))]), p]);
    // Large |x|: sign(x) (1 - erfc(|x|)), erfc by its continued fraction evaluated from the tail.
    const xl = op("Where", [small, scalar(ERF_SPLIT + 0.5), a]);
    let t = xl;
    for (let k = ERF_TERMS; k >= 1; k--) t = op("Add", [xl, op("Div", [scalar(k / 2), t])]);
    const erfc = op("Div", [op("Exp", [op("Neg", [op("Mul", [xl, xl])])]), op("Mul", [t, scalar(Math.sqrt(Math.PI))])]);
    const tail = op("Mul", [op("Sign", [x]), op("Sub", [scalar(1), erfc])]);
    op("Where", [small, series, tail], n.output?.[0] as string);
  }
  graph.node = out;
}
