/** A small builder that appends nodes and constants to a graph under fresh, collision-free names. */

import { pushAll } from "@npov/core";
import {
  DataType,
  type GraphProto,
  type IGraphProto,
  makeAttributes,
  makeTensor,
  type NodeProto,
  onnx,
  type TensorProto,
} from "./proto.js";

type AttrValues = Parameters<typeof makeAttributes>[0];

/** All tensor and node names a graph uses (inputs, outputs, initializers, node outputs). */
export function graphNames(graph: IGraphProto): Set<string> {
  const names = new Set<string>();
  for (const v of graph.input ?? []) names.add(v.name ?? "");
  for (const v of graph.output ?? []) names.add(v.name ?? "");
  for (const t of graph.initializer ?? []) names.add(t.name ?? "");
  for (const n of graph.node ?? []) {
    for (const o of n.output ?? []) names.add(o);
    if (n.name) names.add(n.name);
  }
  return names;
}

/** Emits nodes and initializers with names that do not collide with the graph's. */
export class GraphBuilder {
  readonly nodes: NodeProto[] = [];
  readonly initializers: TensorProto[] = [];
  private readonly used: Set<string>;
  private readonly constants = new Map<string, string>();
  private counter = 0;

  constructor(
    graph: IGraphProto,
    private readonly prefix: string,
  ) {
    this.used = graphNames(graph);
  }

  /** A fresh tensor name based on `hint`. */
  fresh(hint: string): string {
    let name: string;
    do name = `${this.prefix}/${hint}_${this.counter++}`;
    while (this.used.has(name));
    this.used.add(name);
    return name;
  }

  /** Append a node; returns its output names (fresh unless given). */
  node(
    opType: string,
    inputs: readonly string[],
    outputs: number | readonly string[] = 1,
    attrs: AttrValues = {},
  ): string[] {
    const outs =
      typeof outputs === "number" ? Array.from({ length: outputs }, () => this.fresh(opType)) : outputs.slice();
    this.nodes.push(
      onnx.NodeProto.create({
        opType,
        input: inputs.slice(),
        output: outs,
        name: this.fresh(`${opType}_node`),
        attribute: makeAttributes(attrs),
      }),
    );
    return outs;
  }

  /** Append a single-output node; returns its output name. */
  op(opType: string, inputs: readonly string[], attrs: AttrValues = {}): string {
    return this.node(opType, inputs, 1, attrs)[0] as string;
  }

  /** A constant int64 tensor (1-D by default, scalar with `dims: []`), shared between uses. */
  ints(values: readonly number[], dims: readonly number[] = [values.length]): string {
    return this.constant(`i64:${dims.join("x")}:${values.join(",")}`, () =>
      makeTensor("", BigInt64Array.from(values.map((v) => BigInt(v))), dims, DataType.INT64),
    );
  }

  /** A constant scalar of a floating type (FLOAT or DOUBLE), shared between uses. */
  scalar(value: number, elemType: number): string {
    return this.constant(`f${elemType}:${value}`, () =>
      makeTensor("", elemType === DataType.DOUBLE ? Float64Array.of(value) : Float32Array.of(value), [], elemType),
    );
  }

  private constant(key: string, make: () => TensorProto): string {
    let name = this.constants.get(key);
    if (name === undefined) {
      name = this.fresh("const");
      const t = make();
      t.name = name;
      this.initializers.push(t);
      this.constants.set(key, name);
    }
    return name;
  }

  /** Append everything built so far to `graph`. */
  flushInto(graph: GraphProto): void {
    pushAll(graph.node, this.nodes);
    pushAll(graph.initializer, this.initializers);
    this.nodes.length = 0;
    this.initializers.length = 0;
  }
}
