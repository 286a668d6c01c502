/**
 * Bases kept across proofs: every Groth16 proof with one key hands the same zkey sections to
 * `multiExpAffine` (read afresh from the file each time, so never the same buffer), and PLONK hands
 * prefixes of one SRS. An entry holds a copy of the bases as given (ffjavascript's Montgomery bytes)
 * and what pippin made of them (prepared G1 bases, or G2 points already converted and validated).
 *
 * Lookup is by content: a request matches an entry of its curve and group when its bytes equal a
 * prefix of the entry's. The comparison reads the bytes once
 * (≈ 0.1 ms per MiB) where a conversion costs a pass of field multiplications and a decode. Entries
 * are evicted least recently used first to stay within the byte budget; the budget counts the copy
 * and the Wasm memory the entry holds.
 */

export interface CacheEntry<H> {
  readonly curve: string;
  readonly group: 'G1' | 'G2';
  /** the bases that were converted (a private copy, never written) */
  readonly raw: Uint8Array;
  /** points in `raw` */
  readonly n: number;
  /** what pippin made of them */
  readonly held: H;
  /** bytes charged to the budget: raw plus the held form */
  readonly bytes: number;
  lastUse: number;
}

/**
 * The base cache's counters.
 *
 * @inline
 */
export interface CacheCounters {
  /** calls whose bases were cached */
  hits: number;
  /** calls whose bases were converted and prepared */
  misses: number;
  /** entries dropped to stay within the byte budget */
  evictions: number;
  /** entries dropped because a longer entry with the same prefix replaced them */
  superseded: number;
}

export class BaseCache<H> {
  private entries: CacheEntry<H>[] = [];
  private clock = 0;
  readonly counters: CacheCounters = { hits: 0, misses: 0, evictions: 0, superseded: 0 };

  constructor(
    /** most bytes held (LRU beyond it) */
    readonly budget: number,
    /** frees what an entry holds (prepared bases' Wasm memory) */
    private readonly release: (held: H) => void,
  ) {}

  get bytes(): number {
    let b = 0;
    for (const e of this.entries) b += e.bytes;
    return b;
  }

  get size(): number {
    return this.entries.length;
  }

  /** The entry whose bases start with `bases`' bytes (counts a hit or a miss). */
  lookup(curve: string, group: 'G1' | 'G2', bases: Uint8Array, again = false): CacheEntry<H> | undefined {
    let found: CacheEntry<H> | undefined;
    for (let i = 0; !found && i < this.entries.length; i++) {
      const e = this.entries[i];
      if (e.curve === curve && e.group === group && isPrefix(bases, e.raw)) found = e;
    }
    if (!found) {
      if (!again) this.counters.misses++;
      return undefined;
    }
    if (again) this.counters.misses--;
    this.counters.hits++;
    found.lastUse = ++this.clock;
    return found;
  }

  /**
   * Adds an entry (its `raw` a private copy: the bytes its `held` was made from) and evicts to the budget. Entries of the same
   * curve and group whose bases are a prefix of the new one are dropped (a longer SRS prefix serves
   * them). Returns false, holding nothing, when the entry alone exceeds the budget: the caller then
   * releases it after use.
   */
  add(entry: Omit<CacheEntry<H>, 'lastUse'>): boolean {
    if (entry.bytes > this.budget) return false;
    for (const e of [...this.entries]) {
      if (e.curve === entry.curve && e.group === entry.group && e.n <= entry.n && isPrefix(e.raw, entry.raw)) {
        this.remove(e);
        this.counters.superseded++;
      }
    }
    const full: CacheEntry<H> = { ...entry, lastUse: ++this.clock };
    this.entries.push(full);
    let total = this.bytes;
    while (total > this.budget) {
      let lru = this.entries[0];
      for (const e of this.entries) if (e.lastUse < lru.lastUse) lru = e;
      total -= lru.bytes;
      this.remove(lru);
      this.counters.evictions++;
    }
    return true;
  }

  /** Drops every entry (of one curve, or all) and releases what they hold. */
  clear(curve?: string): void {
    for (const e of [...this.entries]) if (curve === undefined || e.curve === curve) this.remove(e);
  }

  private remove(e: CacheEntry<H>): void {
    this.entries = this.entries.filter((x) => x !== e);
    this.release(e.held);
  }
}

/** Whether `a`'s bytes equal the first a.length bytes of `b`: ends first (cheap rejects), then 32-bit words. */
export function isPrefix(a: Uint8Array, b: Uint8Array): boolean {
  const n = a.length;
  if (n > b.length) return false;
  if (n === 0) return true;
  const edge = Math.min(n, 64);
  for (let i = 0; i < edge; i++) if (a[i] !== b[i] || a[n - 1 - i] !== b[n - 1 - i]) return false;
  let i = 0;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const words = n >>> 2;
    const wa = new Int32Array(a.buffer, a.byteOffset, words);
    const wb = new Int32Array(b.buffer, b.byteOffset, words);
    for (let k = 0; k < words; k++) if (wa[k] !== wb[k]) return false;
    i = words << 2;
  }
  for (; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}
