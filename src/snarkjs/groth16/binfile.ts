/**
 * The section container of snarkjs's binary files (`.zkey`, `.wtns`, also `.r1cs` and `.ptau`), read
 * from bytes with every length checked against what is there. All integers are little-endian.
 *
 *   offset 0   magic, 4 ASCII bytes ("zkey", "wtns")
 *          4   version, u32
 *          8   section count, u32
 *         12   the sections, one after another: type u32, payload size u64, payload
 *
 * Section types are indexed as found (any order); the file must end with the last section's payload.
 * Cost: O(section count) to scan, no copies (sections are offsets into the caller's bytes).
 */
import { FileFormatError } from './errors.js';

/** One section: its type and where its payload lies in the file. */
export interface Section {
  readonly type: number;
  /** byte offset of the payload in the file */
  readonly start: number;
  /** payload bytes */
  readonly size: number;
}

/** A scanned container: the caller's bytes and its sections by type. */
export interface BinFile {
  readonly kind: string;
  readonly bytes: Uint8Array;
  readonly version: number;
  readonly sections: ReadonlyMap<number, Section>;
}

const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

/**
 * Scans the container: magic, version (1…maxVersion), then each section header. A section type seen
 * twice, a header or payload past the end of the bytes, or bytes after the last payload are errors.
 * Names for section types (`names`) only make messages clearer.
 */
export function readContainer(bytes: Uint8Array, magic: string, maxVersion: number, names: Readonly<Record<number, string>> = {}): BinFile {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`${magic}: expected a Uint8Array, got ${Object.prototype.toString.call(bytes)}`);
  const dv = view(bytes);
  const n = bytes.length;
  for (let i = 0; i < 4; i++) {
    if (i >= n) throw new FileFormatError(`${magic}: file truncated at byte ${n} (inside the magic number)`, 'truncated', null, n);
    if (bytes[i] !== magic.charCodeAt(i)) {
      const seen = [...bytes.subarray(0, 4)].map((c) => (c >= 32 && c < 127 ? String.fromCharCode(c) : '.')).join('');
      throw new FileFormatError(`${magic}: not a ${magic} file (magic "${seen}")`, 'magic', null, i);
    }
  }
  if (n < 12) throw new FileFormatError(`${magic}: file truncated at byte ${n} (inside the file header, 12 bytes)`, 'truncated', null, n);
  const version = dv.getUint32(4, true);
  if (version < 1 || version > maxVersion) throw new FileFormatError(`${magic}: version ${version} not supported (1 to ${maxVersion})`, 'version', null, 4);
  const count = dv.getUint32(8, true);
  const sections = new Map<number, Section>();
  let pos = 12;
  for (let i = 0; i < count; i++) {
    if (pos + 12 > n) throw new FileFormatError(`${magic}: file truncated at byte ${n} (header of section ${i + 1} of ${count} at ${pos})`, 'truncated', null, n);
    const type = dv.getUint32(pos, true);
    const size = dv.getUint32(pos + 4, true) + dv.getUint32(pos + 8, true) * 2 ** 32;
    const start = pos + 12;
    const label = sectionLabel(type, names);
    if (sections.has(type)) throw new FileFormatError(`${magic}: ${label} appears twice (at ${sections.get(type)!.start - 12} and ${pos})`, 'section-duplicate', type, pos);
    if (size > n - start) throw new FileFormatError(`${magic}: file truncated at byte ${n} (${label} declares ${size} bytes from ${start})`, 'truncated', type, n);
    sections.set(type, { type, start, size });
    pos = start + size;
  }
  if (pos !== n) throw new FileFormatError(`${magic}: ${n - pos} bytes after the last section (at ${pos})`, 'trailing-data', null, pos);
  return { kind: magic, bytes, version, sections };
}

export function sectionLabel(type: number, names: Readonly<Record<number, string>>): string {
  return names[type] ? `section ${type} (${names[type]})` : `section ${type}`;
}

/**
 * Checks the set of section types: none outside `required` ∪ `optional` (the lowest unknown one is
 * named), none of `required` missing (the lowest missing one is named).
 */
export function checkSectionSet(file: BinFile, required: readonly number[], optional: readonly number[], names: Readonly<Record<number, string>>): void {
  const known = new Set([...required, ...optional]);
  const unknown = [...file.sections.keys()].filter((t) => !known.has(t)).sort((a, b) => a - b);
  if (unknown.length) {
    const s = file.sections.get(unknown[0])!;
    throw new FileFormatError(`${file.kind}: unknown section ${unknown[0]} at ${s.start - 12}`, 'section-unknown', unknown[0], s.start - 12);
  }
  for (const t of [...required].sort((a, b) => a - b)) {
    if (!file.sections.has(t)) throw new FileFormatError(`${file.kind}: ${sectionLabel(t, names)} missing`, 'section-missing', t, -1);
  }
}

/** A bounded reader over one section's payload; reading past its end is a `section-size` error. */
export class SectionReader {
  private readonly dv: DataView;
  private readonly end: number;
  private readonly label: string;
  /** the absolute byte offset of the next read */
  pos: number;

  constructor(
    readonly file: BinFile,
    readonly section: Section,
    names: Readonly<Record<number, string>>,
  ) {
    this.dv = view(file.bytes);
    this.pos = section.start;
    this.end = section.start + section.size;
    this.label = sectionLabel(section.type, names);
  }

  /** An error about this section at `offset` (default: the read position). */
  fail(message: string, code: 'value' | 'section-size' | 'curve' | 'protocol' = 'value', offset = this.pos): FileFormatError {
    return new FileFormatError(`${this.file.kind}: ${this.label}: ${message}`, code, this.section.type, offset);
  }

  private need(n: number, what: string): number {
    if (n > this.end - this.pos) throw this.fail(`${this.section.size} bytes, too short for ${what} at ${this.pos}`, 'section-size');
    const at = this.pos;
    this.pos += n;
    return at;
  }

  u32(what: string): number {
    return this.dv.getUint32(this.need(4, what), true);
  }

  /** `n` bytes as a view of the file (no copy). */
  take(n: number, what: string): Uint8Array {
    const at = this.need(n, what);
    return this.file.bytes.subarray(at, at + n);
  }

  /** An unsigned little-endian integer of `n` bytes. */
  bigint(n: number, what: string): bigint {
    return leToBigint(this.take(n, what), 0, n);
  }

  /** Requires the payload to have exactly `bytes` bytes (checked before reading a large section). */
  expectSize(bytes: number, what: string): void {
    if (this.section.size !== bytes) throw this.fail(`${this.section.size} bytes, ${what} take ${bytes}`, 'section-size', this.section.start);
  }

  /** Requires the whole payload to have been read. */
  done(): void {
    if (this.pos !== this.end) throw this.fail(`${this.section.size} bytes, ${this.end - this.pos} left unread after its contents`, 'section-size', this.pos);
  }
}

/** The unsigned little-endian integer of `n` bytes at `offset` (whole 8-byte words at a time where it can). */
export function leToBigint(bytes: Uint8Array, offset: number, n: number): bigint {
  const dv = view(bytes);
  let v = 0n;
  let i = n;
  while (i >= 8) {
    i -= 8;
    v = (v << 64n) | dv.getBigUint64(offset + i, true);
  }
  while (i > 0) v = (v << 8n) | BigInt(bytes[offset + --i]);
  return v;
}

/** Writes `v` (0 ≤ v < 2^(8n)) as `n` little-endian bytes at `offset`. */
export function bigintToLe(v: bigint, out: Uint8Array, offset: number, n: number): void {
  const dv = view(out);
  let i = 0;
  for (; i + 8 <= n; i += 8, v >>= 64n) dv.setBigUint64(offset + i, BigInt.asUintN(64, v), true);
  for (; i < n; i++, v >>= 8n) out[offset + i] = Number(v & 0xffn);
}

/**
 * The index of the first of `count` little-endian elements of `n8` bytes from `offset` that is not
 * below `modulus` (given as `n8` little-endian bytes), or −1. Compares from the top byte down: most
 * elements are decided by their first one or two bytes. Cost O(count) byte reads.
 */
export function firstNotBelow(bytes: Uint8Array, offset: number, count: number, n8: number, modulus: Uint8Array): number {
  for (let e = 0; e < count; e++) {
    const base = offset + e * n8;
    let j = n8 - 1;
    while (j >= 0 && bytes[base + j] === modulus[j]) j--;
    if (j < 0 || bytes[base + j] > modulus[j]) return e;
  }
  return -1;
}
