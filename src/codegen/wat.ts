/**
 * A small typed layer for emitting WebAssembly text (WAT) at build time.
 *
 * Expressions are typed values (`Expr<'i32'>`, `Expr<'i64'>`) rendered as folded s-expressions, so
 * the TypeScript compiler rejects e.g. an i32 operand to `i64.add`. Statements are appended to a
 * `FuncBuilder` line by line, with comments, which keeps the generated `.wat` readable. The text is
 * assembled to binary by `wabt` (see ./assemble.ts). Nothing here runs at library run time.
 */
import type { CountedScratch } from './scratch.js';

export type ValType = 'i32' | 'i64' | 'f64' | 'v128';

/** A typed WAT expression (folded form). */
export class Expr<T extends ValType> {
  constructor(readonly type: T, readonly text: string) {}
  toString(): string {
    return this.text;
  }
}
export type I32 = Expr<'i32'>;
export type I64 = Expr<'i64'>;

const op = <T extends ValType>(type: T, name: string, ...args: Expr<ValType>[]) =>
  new Expr(type, `(${name} ${args.map((a) => a.text).join(' ')})`);

const hex = (v: bigint) => (v < 0n ? `-0x${(-v).toString(16)}` : `0x${v.toString(16)}`);

/** Memory access immediate: offset in bytes (folded into the instruction, must be ≥ 0). */
const memarg = (offset: number) => {
  if (offset < 0 || !Number.isInteger(offset)) throw new Error(`bad memory offset ${offset}`);
  return offset === 0 ? '' : ` offset=${offset}`;
};

export const i64 = {
  const: (v: bigint | number) => new Expr('i64', `(i64.const ${hex(BigInt(v))})`),
  add: (a: I64, b: I64) => op('i64', 'i64.add', a, b),
  sub: (a: I64, b: I64) => op('i64', 'i64.sub', a, b),
  mul: (a: I64, b: I64) => op('i64', 'i64.mul', a, b),
  and: (a: I64, b: I64) => op('i64', 'i64.and', a, b),
  or: (a: I64, b: I64) => op('i64', 'i64.or', a, b),
  xor: (a: I64, b: I64) => op('i64', 'i64.xor', a, b),
  shl: (a: I64, b: I64 | number) => op('i64', 'i64.shl', a, typeof b === 'number' ? i64.const(b) : b),
  shr_u: (a: I64, b: I64 | number) => op('i64', 'i64.shr_u', a, typeof b === 'number' ? i64.const(b) : b),
  shr_s: (a: I64, b: I64 | number) => op('i64', 'i64.shr_s', a, typeof b === 'number' ? i64.const(b) : b),
  ctz: (a: I64) => op('i64', 'i64.ctz', a),
  clz: (a: I64) => op('i64', 'i64.clz', a),
  eq: (a: I64, b: I64) => op('i32', 'i64.eq', a, b),
  ne: (a: I64, b: I64) => op('i32', 'i64.ne', a, b),
  eqz: (a: I64) => op('i32', 'i64.eqz', a),
  lt_u: (a: I64, b: I64) => op('i32', 'i64.lt_u', a, b),
  gt_u: (a: I64, b: I64) => op('i32', 'i64.gt_u', a, b),
  lt_s: (a: I64, b: I64) => op('i32', 'i64.lt_s', a, b),
  gt_s: (a: I64, b: I64) => op('i32', 'i64.gt_s', a, b),
  le_s: (a: I64, b: I64) => op('i32', 'i64.le_s', a, b),
  ge_s: (a: I64, b: I64) => op('i32', 'i64.ge_s', a, b),
  extend_i32_u: (a: I32) => op('i64', 'i64.extend_i32_u', a),
  extend_i32_s: (a: I32) => op('i64', 'i64.extend_i32_s', a),
  /** Loads a u32 limb, zero-extended. */
  load32_u: (addr: I32, offset = 0) => new Expr('i64', `(i64.load32_u${memarg(offset)} ${addr.text})`),
  load: (addr: I32, offset = 0) => new Expr('i64', `(i64.load${memarg(offset)} ${addr.text})`),
  select: (a: I64, b: I64, cond: I32) => op('i64', 'select', a, b, cond),
};

export const i32 = {
  const: (v: number) => new Expr('i32', `(i32.const ${v | 0})`),
  add: (a: I32, b: I32) => op('i32', 'i32.add', a, b),
  sub: (a: I32, b: I32) => op('i32', 'i32.sub', a, b),
  mul: (a: I32, b: I32) => op('i32', 'i32.mul', a, b),
  div_u: (a: I32, b: I32) => op('i32', 'i32.div_u', a, b),
  rem_u: (a: I32, b: I32) => op('i32', 'i32.rem_u', a, b),
  and: (a: I32, b: I32) => op('i32', 'i32.and', a, b),
  or: (a: I32, b: I32) => op('i32', 'i32.or', a, b),
  xor: (a: I32, b: I32) => op('i32', 'i32.xor', a, b),
  shl: (a: I32, b: I32 | number) => op('i32', 'i32.shl', a, typeof b === 'number' ? i32.const(b) : b),
  shr_u: (a: I32, b: I32 | number) => op('i32', 'i32.shr_u', a, typeof b === 'number' ? i32.const(b) : b),
  shr_s: (a: I32, b: I32 | number) => op('i32', 'i32.shr_s', a, typeof b === 'number' ? i32.const(b) : b),
  eq: (a: I32, b: I32) => op('i32', 'i32.eq', a, b),
  ne: (a: I32, b: I32) => op('i32', 'i32.ne', a, b),
  eqz: (a: I32) => op('i32', 'i32.eqz', a),
  lt_u: (a: I32, b: I32) => op('i32', 'i32.lt_u', a, b),
  gt_u: (a: I32, b: I32) => op('i32', 'i32.gt_u', a, b),
  le_u: (a: I32, b: I32) => op('i32', 'i32.le_u', a, b),
  ge_u: (a: I32, b: I32) => op('i32', 'i32.ge_u', a, b),
  lt_s: (a: I32, b: I32) => op('i32', 'i32.lt_s', a, b),
  gt_s: (a: I32, b: I32) => op('i32', 'i32.gt_s', a, b),
  ge_s: (a: I32, b: I32) => op('i32', 'i32.ge_s', a, b),
  le_s: (a: I32, b: I32) => op('i32', 'i32.le_s', a, b),
  ctz: (a: I32) => op('i32', 'i32.ctz', a),
  clz: (a: I32) => op('i32', 'i32.clz', a),
  wrap_i64: (a: I64) => op('i32', 'i32.wrap_i64', a),
  load: (addr: I32, offset = 0) => new Expr('i32', `(i32.load${memarg(offset)} ${addr.text})`),
  load8_u: (addr: I32, offset = 0) => new Expr('i32', `(i32.load8_u${memarg(offset)} ${addr.text})`),
  load8_s: (addr: I32, offset = 0) => new Expr('i32', `(i32.load8_s${memarg(offset)} ${addr.text})`),
  load16_u: (addr: I32, offset = 0) => new Expr('i32', `(i32.load16_u${memarg(offset)} ${addr.text})`),
  select: (a: I32, b: I32, cond: I32) => op('i32', 'select', a, b, cond),
};

/** A named local (or parameter) of a function. */
export class Local<T extends ValType> {
  constructor(
    private readonly fb: FuncBuilder,
    readonly name: string,
    readonly type: T,
  ) {}
  get get(): Expr<T> {
    return new Expr(this.type, `(local.get $${this.name})`);
  }
  set(value: Expr<T>): void {
    this.fb.line(`(local.set $${this.name} ${value.text})`);
  }
  tee(value: Expr<T>): Expr<T> {
    return new Expr(this.type, `(local.tee $${this.name} ${value.text})`);
  }
}

export type Params = Record<string, ValType>;

/** Builds one function body, statement by statement. */
export class FuncBuilder {
  private readonly body: string[] = [];
  private readonly locals = new Map<string, ValType>();
  private depth = 2;
  private labelCount = 0;
  /** Counts of selected instructions, recorded in the function header (cost visibility). */
  constructor(
    readonly name: string,
    readonly params: Params,
    readonly result: ValType | undefined,
    readonly doc: string[],
    /** several results (multi-value; internal helpers only, never a kernel of the ABI) */
    readonly results?: readonly ValType[],
  ) {}

  param<T extends ValType>(name: string, type: T): Local<T> {
    if (this.params[name] !== type) throw new Error(`${this.name}: no ${type} param ${name}`);
    return new Local(this, name, type);
  }
  local<T extends ValType>(name: string, type: T): Local<T> {
    const prev = this.locals.get(name);
    if (prev !== undefined && prev !== type) throw new Error(`${this.name}: local ${name} redeclared`);
    if (name in this.params) throw new Error(`${this.name}: local ${name} shadows a param`);
    this.locals.set(name, type);
    return new Local(this, name, type);
  }
  /** n locals name0..name{n-1} (zero-padded for sorting). */
  locals64(prefix: string, n: number): Local<'i64'>[] {
    const width = String(n - 1).length;
    return Array.from({ length: n }, (_, i) => this.local(`${prefix}${String(i).padStart(width, '0')}`, 'i64'));
  }

  line(text: string): void {
    this.body.push('  '.repeat(this.depth) + text);
  }
  comment(text: string): void {
    for (const l of text.split('\n')) this.line(`;; ${l}`);
  }
  drop(e: Expr<ValType>): void {
    this.line(`(drop ${e.text})`);
  }
  i64Store32(addr: I32, offset: number, value: I64): void {
    this.line(`(i64.store32${memarg(offset)} ${addr.text} ${value.text})`);
  }
  i64Store(addr: I32, offset: number, value: I64): void {
    this.line(`(i64.store${memarg(offset)} ${addr.text} ${value.text})`);
  }
  i32Store(addr: I32, offset: number, value: I32): void {
    this.line(`(i32.store${memarg(offset)} ${addr.text} ${value.text})`);
  }
  i32Store8(addr: I32, offset: number, value: I32): void {
    this.line(`(i32.store8${memarg(offset)} ${addr.text} ${value.text})`);
  }
  call(fn: string, ...args: Expr<ValType>[]): void {
    this.line(`(call $${fn} ${args.map((a) => a.text).join(' ')})`);
  }
  callExpr<T extends ValType>(type: T, fn: string, ...args: Expr<ValType>[]): Expr<T> {
    return new Expr(type, `(call $${fn} ${args.map((a) => a.text).join(' ')})`);
  }
  globalGet(name: string): I32 {
    return new Expr('i32', `(global.get $${name})`);
  }
  globalSet(name: string, value: I32): void {
    this.line(`(global.set $${name} ${value.text})`);
  }
  unreachable(): void {
    this.line('(unreachable)');
  }
  ret(value?: Expr<ValType>): void {
    this.line(value ? `(return ${value.text})` : '(return)');
  }

  private nested(open: string, inner: () => void): void {
    this.line(open);
    this.depth++;
    inner();
    this.depth--;
    this.line(')');
  }
  /** `block $label ... end`; `br(label)` exits it. */
  block(inner: (label: string) => void): void {
    const label = `$b${this.labelCount++}`;
    this.nested(`(block ${label}`, () => inner(label));
  }
  /** `loop $label ... end`; `br(label)` continues it. Falls through at the end. */
  loop(inner: (label: string) => void): void {
    const label = `$l${this.labelCount++}`;
    this.nested(`(loop ${label}`, () => inner(label));
  }
  br(label: string): void {
    this.line(`(br ${label})`);
  }
  brIf(label: string, cond: I32): void {
    this.line(`(br_if ${label} ${cond.text})`);
  }
  if(cond: I32, then: () => void, otherwise?: () => void): void {
    this.line(`(if ${cond.text}`);
    this.depth++;
    this.nested('(then', then);
    if (otherwise) this.nested('(else', otherwise);
    this.depth--;
    this.line(')');
  }
  /** `for (i = start; i < end; i += step)` over an i32 local, as a Wasm loop (body runs ≥ 0 times). */
  forRange(i: Local<'i32'>, start: I32, end: I32, step: number, inner: () => void): void {
    i.set(start);
    this.block((exit) => {
      this.brIf(exit, i32.ge_u(i.get, end));
      this.loop((again) => {
        inner();
        this.brIf(again, i32.lt_u(i.tee(i32.add(i.get, i32.const(step))), end));
      });
    });
  }

  /** i = end − 1 down to 0 (nothing when end = 0): for in-place expansions that must run backwards. */
  forRangeDown(i: Local<'i32'>, end: I32, inner: () => void): void {
    i.set(end);
    this.block((exit) => {
      this.loop((again) => {
        this.brIf(exit, i32.eqz(i.get));
        i.set(i32.sub(i.get, i32.const(1)));
        inner();
        this.br(again);
      });
    });
  }

  toWat(): string {
    const head: string[] = this.doc.map((d) => `  ;; ${d}`);
    const mulCount = this.body.reduce((s, l) => s + (l.match(/\(i64\.mul /g)?.length ?? 0), 0);
    head.push(`  ;; i64.mul instructions in body: ${mulCount}`);
    const params = Object.entries(this.params)
      .map(([n, t]) => `(param $${n} ${t})`)
      .join(' ');
    const result = this.results ? ` (result ${this.results.join(' ')})` : this.result ? ` (result ${this.result})` : '';
    const lines = [...head, `  (func $${this.name} ${params}${result}`];
    const locals = [...this.locals.entries()];
    for (let k = 0; k < locals.length; k += 8) {
      lines.push('    ' + locals.slice(k, k + 8).map(([n, t]) => `(local $${n} ${t})`).join(' '));
    }
    lines.push(...this.body, '  )');
    return lines.join('\n');
  }
}

export interface MemorySpec {
  /** Import the memory as `env.memory` (shared between modules / threads) instead of defining it. */
  imported: boolean;
  shared: boolean;
  initialPages: number;
  maximumPages: number;
}

/**
 * What a kernel's caller must know, recorded from its declaration (src/codegen/build.ts turns the
 * exported ones into the typed ABI): the signature, the contract's first line, and the scratch it
 * needs — bytes, or 'by-count' when it grows with a count argument (the src/abi/layout.ts function
 * its header names, ./scratch.ts).
 */
export interface KernelAbi {
  name: string;
  params: [name: string, type: ValType][];
  result: ValType | undefined;
  doc: string;
  scratch?: number | 'by-count';
}

/** A whole module: header comment, memory, globals, functions and their exports. */
export class ModuleBuilder {
  private readonly funcs: FuncBuilder[] = [];
  private readonly exports: string[] = [];
  private readonly globals: string[] = [];
  /** exported kernels and mutable globals, in declaration order */
  readonly abi: KernelAbi[] = [];
  readonly exportedGlobals: string[] = [];

  constructor(
    readonly header: string[],
    readonly memory: MemorySpec,
  ) {}

  /**
   * Declares a function. Exported ones become kernels of the ABI: one taking a `scratch` param must
   * state its size (`options.scratch`: bytes, or the src/abi/layout.ts function of a count, see
   * ./scratch.ts), and its header must state the same: `<bytes> bytes`, or the function's name.
   */
  func(
    name: string,
    params: Params,
    result: ValType | undefined,
    doc: string[],
    build: (fb: FuncBuilder) => void,
    options: { export?: boolean; scratch?: number | CountedScratch; results?: readonly ValType[] } = {},
  ): void {
    if (this.funcs.some((f) => f.name === name)) throw new Error(`duplicate function ${name}`);
    if (options.results && (options.export ?? true)) throw new Error(`${name}: a multi-value function cannot be a kernel`);
    const fb = new FuncBuilder(name, params, result, doc, options.results);
    build(fb);
    this.funcs.push(fb);
    if (options.export ?? true) {
      this.exports.push(name);
      const scratch = options.scratch;
      if ('scratch' in params && scratch === undefined) throw new Error(`${name}: takes scratch but states no scratch size`);
      if (scratch !== undefined) {
        const stated = typeof scratch === 'number' ? `${scratch} bytes` : `${scratch.fn.name}(`;
        if (!doc.join(' ').includes(stated)) throw new Error(`${name}: its header does not state its scratch (${stated})`);
      }
      this.abi.push({ name, params: Object.entries(params), result, doc: doc[0] ?? '', scratch: typeof scratch === 'object' ? 'by-count' : scratch });
    }
  }
  /** Index of a declared function in the module's function index space (no functions are imported). */
  funcIndex(name: string): number {
    const k = this.funcs.findIndex((f) => f.name === name);
    if (k < 0) throw new Error(`no function ${name}`);
    return k;
  }
  hasFunc(name: string): boolean {
    return this.funcs.some((f) => f.name === name);
  }
  globalI32(name: string, mutable: boolean, init: number, exported = false): void {
    const t = mutable ? '(mut i32)' : 'i32';
    this.globals.push(`  (global $${name}${exported ? ` (export "${name}")` : ''} ${t} (i32.const ${init}))`);
    if (exported) this.exportedGlobals.push(name);
  }

  toWat(): string {
    const m = this.memory;
    const limits = `${m.initialPages} ${m.maximumPages}${m.shared ? ' shared' : ''}`;
    const mem = m.imported ? `  (import "env" "memory" (memory ${limits}))` : `  (memory (export "memory") ${limits})`;
    const lines = [
      ...this.header.map((h) => `;; ${h}`),
      '(module',
      mem,
      ...this.globals,
      ...this.exports.map((e) => `  (export "${e}" (func $${e}))`),
      ...this.funcs.map((f) => f.toWat()),
      ')',
      '',
    ];
    return lines.join('\n');
  }
}

/**
 * Left-to-right double-and-add over the bits of e ≥ 1 below its leading one: for each run of zero
 * bits ended by a one (or by the end), `double` once per bit of the run, then `add` after the one.
 * Runs of more than two doublings become a counted loop on `counter`; `note` may comment each run.
 */
export function emitDoubleAndAdd(
  fb: FuncBuilder,
  e: bigint,
  counter: Local<'i32'>,
  double: () => void,
  add: () => void,
  note?: (run: number, one: boolean) => string,
): void {
  const bits = e.toString(2);
  let i = 1;
  while (i < bits.length) {
    let run = 0;
    while (i < bits.length && bits[i] === '0') {
      run++;
      i++;
    }
    const one = i < bits.length;
    if (one) {
      run++;
      i++;
    }
    if (note) fb.comment(note(run, one));
    if (run <= 2) {
      for (let k = 0; k < run; k++) double();
    } else {
      counter.set(i32.const(run));
      fb.loop((again) => {
        double();
        fb.brIf(again, i32.ne(counter.tee(i32.sub(counter.get, i32.const(1))), i32.const(0)));
      });
    }
    if (one) add();
  }
}
