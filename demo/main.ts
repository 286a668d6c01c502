/**
 * The demo page: form → runMsm → result, phases, plot and history; the threads banner says whether
 * the worker pool runs (`threads.active`) or why not (`threads.reason`). Also `window.runMsm` and
 * `window.pippinThreads` for tests and bench:browser.
 */
import { runMsm, ensureThreads, curveInfo, curveNames, g2CurveNames, useBackend, type CurveName, type Group, type RunResult } from './msm-run.js';
import type { Validation } from '../src/api/group.js';
import { threads as threadState } from '../src/index.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const form = $<HTMLFormElement>('form');
const curveSel = $<HTMLSelectElement>('curve');
const groupSel = $<HTMLSelectElement>('group');
const sizeSel = $<HTMLSelectElement>('logSize');
const seedIn = $<HTMLInputElement>('seed');
const validateSel = $<HTMLSelectElement>('validate');
const threadsSel = $<HTMLSelectElement>('threads');
const threadsNote = $('threadsNote');
const banner = $('threadsBanner');
const runBtn = $<HTMLButtonElement>('run');
const statusEl = $('status');
const resultEl = $('result');
const phasesEl = $('phases');
const plotEl = $('plot');
const historyBody = $('history').querySelector('tbody')!;

// the curves of the registry, in its order
for (const name of curveNames) {
  const o = document.createElement('option');
  o.value = name;
  o.textContent = name.toUpperCase();
  curveSel.append(o);
}
for (let k = 8; k <= 18; k++) {
  const o = document.createElement('option');
  o.value = String(k);
  o.textContent = `${k}  (n = ${(2 ** k).toLocaleString('en-US')})`;
  if (k === 12) o.selected = true;
  sizeSel.append(o);
}
// G2 exists on some curves only: the group selector offers it there
const syncGroup = () => {
  const g2 = g2CurveNames.includes(curveSel.value as CurveName);
  groupSel.querySelector<HTMLOptionElement>('option[value="g2"]')!.disabled = !g2;
  if (!g2) groupSel.value = 'g1';
};
curveSel.addEventListener('change', syncGroup);
syncGroup();
$('coi').textContent = `crossOriginIsolated: ${globalThis.crossOriginIsolated === true ? 'yes' : 'no'}`;
const cores = Math.max(1, navigator.hardwareConcurrency || 1);

/** Plot colour per thread count, marker per curve, dash per validation level. */
const threadColors = ['#2f5fd0', '#d0632f', '#17803d', '#7a3fc4', '#b8860b', '#c2185b', '#00838f', '#5d4037'];
const colorFor = (t: number) => threadColors[(t - 1) % threadColors.length];
const shapes = ['circle', 'square', 'triangle', 'diamond', 'cross'] as const;
/** A curve's marker: by its place in the registry. */
const markerOf = (curve: CurveName) => shapes[curveNames.indexOf(curve) % shapes.length];
function marker(shape: (typeof shapes)[number], x: number, y: number, color: string, title = ''): string {
  const t = title ? `<title>${title}</title>` : '';
  const r = 3.8;
  switch (shape) {
    case 'circle':
      return `<circle cx="${x}" cy="${y}" r="${r}" fill="${color}">${t}</circle>`;
    case 'square':
      return `<rect x="${x - r}" y="${y - r}" width="${2 * r}" height="${2 * r}" fill="${color}">${t}</rect>`;
    case 'triangle':
      return `<polygon points="${x},${y - r - 1} ${x - r - 0.5},${y + r} ${x + r + 0.5},${y + r}" fill="${color}">${t}</polygon>`;
    case 'diamond':
      return `<polygon points="${x},${y - r - 1} ${x + r + 1},${y} ${x},${y + r + 1} ${x - r - 1},${y}" fill="${color}">${t}</polygon>`;
    case 'cross':
      return `<path d="M${x - r} ${y - r}L${x + r} ${y + r}M${x - r} ${y + r}L${x + r} ${y - r}" stroke="${color}" stroke-width="2.2">${t}</path>`;
  }
}
const threadsLabel = (t: number) => `${t} thread${t === 1 ? '' : 's'}`;
const runs: RunResult[] = [];
const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const nextFrame = () => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));

let busy: Promise<unknown> = Promise.resolve();

/** Runs one MSM (serialized with other runs), updates the page, returns the full result. */
function execute(params: { curve: CurveName; group?: Group; logSize: number; seed: number; validate: Validation; threads?: number; verify?: boolean }): Promise<RunResult> {
  const job = busy.then(async () => {
    runBtn.disabled = true;
    statusEl.className = 'status muted';
    statusEl.textContent = `running ${params.curve} ${(params.group ?? 'g1').toUpperCase()}, n = 2^${params.logSize}, seed ${params.seed}, ${params.threads === undefined ? 'all threads' : threadsLabel(params.threads)}…`;
    await nextFrame();
    try {
      const res = await runMsm(params);
      runs.push(res);
      show(res);
      showThreads();
      return res;
    } catch (e) {
      statusEl.className = 'status bad';
      statusEl.textContent = `error: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
      throw e;
    } finally {
      runBtn.disabled = false;
    }
  });
  busy = job.catch(() => undefined);
  return job;
}

/** The threads line of a run: what ran, and why only one thread if more were asked for. */
function threadsText(res: RunResult): string {
  if (res.threadsUsed > 1) return `${res.threadsUsed} threads (Web Workers on a shared memory), ${res.tiles} tiles`;
  if (res.fallback) return '1 thread: fallback, threads are unavailable here (see the banner above)';
  if (res.threadsRequested === 1) return '1 thread (the page\'s thread, as asked)';
  return '1 thread (the page\'s thread: too few points to split)';
}

function show(res: RunResult) {
  statusEl.className = `status ${!res.verified ? 'muted' : res.ok ? 'ok' : 'bad'}`;
  statusEl.textContent = !res.verified ? 'not verified here (checked by the caller)' : res.ok ? '✓ verified: matches (Σ sᵢ·aᵢ mod r)·G' : '✗ MISMATCH against the closed-form check';
  resultEl.innerHTML = `
    <div class="big">${fmt(res.ms)} ms <span class="muted" style="font-size:15px;font-weight:600">on ${threadsLabel(res.threadsUsed)}</span></div>
    <div class="kv" style="margin-top:6px">
      <span>MSM</span><span>${esc(res.curve)} ${res.group.toUpperCase()}, n = 2^${res.logSize} = ${res.n.toLocaleString('en-US')}, seed ${res.seed}, validate '${esc(res.validate)}', window c = ${res.window}</span>
      <span>threads</span><span class="${res.fallback ? 'bad' : ''}">${esc(threadsText(res))}</span>
      <span>inputs</span><span>${res.genMs > 0 ? `generated in ${fmt(res.genMs)} ms (not timed)` : 'reused from the previous run (same curve, size, seed)'}</span>
      <span>verify</span><span>${res.verified ? `${fmt(res.verifyMs)} ms (bigint reference)` : 'skipped'}</span>
      <span>x</span><span class="mono">${res.infinity ? 'point at infinity' : esc(res.x)}</span>
      <span>y</span><span class="mono">${res.infinity ? '' : esc(res.y)}</span>
    </div>`;
  const rows: [string, number][] = [
    [`input conversion + validation${res.threadsUsed > 1 ? ' (parallel)' : ''}`, res.phases.convert],
    ['scalar decomposition (GLV)', res.phases.split],
    ['scheduling prep', res.phases.prepare],
    [`bucket accumulation${res.threadsUsed > 1 ? ' (tiles on the workers)' : ''}`, res.phases.accumulate],
    [`bucket reduction${res.threadsUsed > 1 ? ' (tiles on the workers)' : ''}`, res.phases.reduce],
    ['final combination', res.phases.final],
  ];
  const max = Math.max(...rows.map((r) => r[1]), 1e-9);
  phasesEl.className = '';
  phasesEl.innerHTML = `<table><tbody>${rows
    .map(([name, v]) => `<tr><td>${name}</td><td>${fmt(v)}</td><td style="width:40%"><div class="bar" style="width:${((100 * v) / max).toFixed(1)}%"></div></td></tr>`)
    .join('')}<tr><td><b>total (g1.msm call)</b></td><td><b>${fmt(res.ms)}</b></td><td></td></tr></tbody></table>`;
  const tr = document.createElement('tr');
  tr.innerHTML = `<td>${runs.length}</td><td>${esc(res.curve)} ${res.group.toUpperCase()}</td><td>2^${res.logSize}</td><td>${res.seed}</td><td>${esc(res.validate)}</td><td class="${res.fallback ? 'bad' : ''}" title="${esc(threadsText(res))}">${res.threadsUsed}${res.fallback ? ' (fallback)' : ''}</td><td>${res.window}</td><td>${fmt(res.ms)}</td><td>${res.genMs > 0 ? fmt(res.genMs) : 'reused'}</td><td>${res.verified ? fmt(res.verifyMs) : '—'}</td><td class="${!res.verified ? 'muted' : res.ok ? 'ok' : 'bad'}">${!res.verified ? 'by caller' : res.ok ? '✓ ok' : '✗ mismatch'}</td>`;
  historyBody.prepend(tr);
  plot();
}

/**
 * Inline SVG: x = log2 n (8..18 or wider), y = MSM ms on a log scale; one series per curve, thread
 * count and validation (colour: threads used; marker: curve; dash: validation).
 */
function plot() {
  const W = 980, H = 300, L = 70, R = 270, T = 12, B = 36; // R: room for the legend
  const xs = runs.map((r) => r.logSize);
  const xmin = Math.min(8, ...xs), xmax = Math.max(18, ...xs);
  const ys = runs.map((r) => Math.max(r.ms, 0.01));
  const lo = Math.floor(Math.log10(Math.min(...ys))), hi = Math.max(lo + 1, Math.ceil(Math.log10(Math.max(...ys))));
  const px = (x: number) => L + ((x - xmin) / (xmax - xmin)) * (W - L - R);
  const py = (ms: number) => T + (1 - (Math.log10(Math.max(ms, 0.01)) - lo) / (hi - lo)) * (H - T - B);
  let s = `<svg viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="MSM time versus size">`;
  for (let e = lo; e <= hi; e++) {
    const y = py(10 ** e);
    s += `<line x1="${L}" x2="${W - R}" y1="${y}" y2="${y}" stroke="#e3e7ee"/><text x="${L - 6}" y="${y + 4}" text-anchor="end">${10 ** e >= 1 ? (10 ** e).toLocaleString('en-US') : 10 ** e} ms</text>`;
  }
  for (let x = xmin; x <= xmax; x++) {
    s += `<line x1="${px(x)}" x2="${px(x)}" y1="${T}" y2="${H - B}" stroke="#f0f2f6"/><text x="${px(x)}" y="${H - B + 15}" text-anchor="middle">2^${x}</text>`;
  }
  s += `<text x="${(L + W - R) / 2}" y="${H - 4}" text-anchor="middle">points n</text>`;
  s += `<rect x="${L}" y="${T}" width="${W - L - R}" height="${H - T - B}" fill="none" stroke="#c4cad6"/>`;
  const series = new Map<string, RunResult[]>();
  for (const r of runs) {
    const key = `${r.curve}${r.group === 'g2' ? ' G2' : ''} · ${threadsLabel(r.threadsUsed)}${r.validate === 'full' ? '' : ` · ${r.validate}`}`;
    if (!series.has(key)) series.set(key, []);
    series.get(key)!.push(r);
  }
  const order = [...series].sort(([, a], [, b]) => a[0].curve.localeCompare(b[0].curve) || a[0].threadsUsed - b[0].threadsUsed || a[0].validate.localeCompare(b[0].validate));
  let li = 0;
  for (const [key, rs] of order) {
    const color = colorFor(rs[0].threadsUsed);
    const shape = markerOf(rs[0].curve);
    const dash = rs[0].validate === 'full' ? '' : rs[0].validate === 'on-curve' ? '6 3' : '2 3';
    // line through the best (min) time per size
    const best = new Map<number, number>();
    for (const r of rs) best.set(r.logSize, Math.min(best.get(r.logSize) ?? Infinity, r.ms));
    const pts = [...best].sort((a, b) => a[0] - b[0]);
    if (pts.length > 1) s += `<polyline fill="none" stroke="${color}" stroke-width="1.8" stroke-dasharray="${dash}" points="${pts.map(([x, ms]) => `${px(x)},${py(ms)}`).join(' ')}"/>`;
    for (const r of rs) s += marker(shape, px(r.logSize), py(r.ms), color, `${esc(key)}, 2^${r.logSize}: ${fmt(r.ms)} ms`);
    const ly = T + 10 + 18 * li++;
    s += `<line x1="${W - R + 8}" x2="${W - R + 30}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="2" stroke-dasharray="${dash}"/>${marker(shape, W - R + 19, ly, color)}<text x="${W - R + 36}" y="${ly + 4}" style="fill:#1d2430">${esc(key)}</text>`;
  }
  s += '</svg>';
  plotEl.innerHTML = s;
}

form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  execute({
    curve: curveSel.value as CurveName,
    group: groupSel.value as Group,
    logSize: Number(sizeSel.value),
    seed: Number(seedIn.value) >>> 0,
    validate: validateSel.value as Validation,
    // a disabled control means no threads here: ask for all, and the run reports the fallback
    threads: threadsSel.disabled ? undefined : Number(threadsSel.value),
  }).catch((e) => console.error(e));
});

interface ThreadsInfo {
  active: boolean;
  count: number;
  reason: string | undefined;
  crossOriginIsolated: boolean;
  hardwareConcurrency: number;
}
const threadsInfo = (): ThreadsInfo => ({ active: threadState.active, count: threadState.count, reason: threadState.reason, crossOriginIsolated: globalThis.crossOriginIsolated === true, hardwareConcurrency: cores });

/** The banner and the threads control, from the pool's state. */
function showThreads() {
  const t = threadsInfo();
  if (t.active) {
    banner.className = 'banner on';
    banner.textContent = `threads active: ${threadsLabel(t.count)} (Web Workers on a shared WebAssembly.Memory; navigator.hardwareConcurrency = ${cores})`;
  } else {
    banner.className = 'banner off';
    banner.textContent = `threads unavailable: ${t.reason ?? 'unknown reason'}; running on 1 thread`;
  }
  const usable = t.active ? Math.max(cores, t.count) : 1;
  if (threadsSel.options.length !== usable) {
    const keep = Number(threadsSel.value) || usable;
    threadsSel.replaceChildren();
    for (let k = 1; k <= usable; k++) {
      const o = document.createElement('option');
      o.value = String(k);
      o.textContent = k === cores && t.active ? `${k} (all cores)` : String(k);
      threadsSel.append(o);
    }
    threadsSel.value = String(Math.min(keep, usable));
  }
  threadsSel.disabled = !t.active;
  threadsNote.textContent = t.active ? `1 … ${usable}; 1 = the page's thread` : 'no SharedArrayBuffer: 1 thread';
}

declare global {
  interface Window {
    /** Runs one MSM like the Run button (threads: at most this many; default all) and returns the run. */
    runMsm: (p: { curve: CurveName; group?: Group; logSize: number; seed?: number; validate?: Validation; threads?: number; verify?: boolean }) => Promise<RunResult & { crossOriginIsolated: boolean }>;
    /** The pool's state as the library reports it (`threads.active`, `.count`, `.reason`). */
    pippinThreads: () => ThreadsInfo;
    /** `curve.info()` after `init()`: the field backend ('wide64' or 'i32') and the limb layout. */
    pippinCurveInfo: typeof curveInfo;
    pippinDemoReady: boolean;
  }
}

window.runMsm = async ({ curve, group = 'g1', logSize, seed = 1, validate = 'full', threads, verify = true }) => {
  if (!curveNames.includes(curve)) throw new Error(`unsupported curve ${curve}`);
  // show the scripted run's parameters in the form, as if a person had picked them
  curveSel.value = curve;
  syncGroup();
  groupSel.value = group;
  sizeSel.value = String(logSize);
  seedIn.value = String(seed);
  validateSel.value = validate;
  if (threads !== undefined && Array.from(threadsSel.options).some((o) => o.value === String(threads))) threadsSel.value = String(threads);
  const r = await execute({ curve, group, logSize, seed, validate, threads, verify });
  return { ...r, crossOriginIsolated: globalThis.crossOriginIsolated === true };
};
window.pippinThreads = threadsInfo;
// `?backend=wide64|i32` forces the field backend (bench:browser --backend both compares them in one browser)
const backendParam = new URLSearchParams(location.search).get('backend');
if (backendParam === 'wide64' || backendParam === 'i32') useBackend(backendParam);
window.pippinCurveInfo = curveInfo;

// start the pool with one worker per core (or learn why not) before the first run
await ensureThreads(undefined);
threadsSel.replaceChildren();
showThreads();
threadsSel.value = threadState.active ? String(Math.min(cores, threadsSel.options.length)) : '1';
statusEl.textContent = 'ready: pick a curve, a size and threads, then Run';
runBtn.disabled = false;
window.pippinDemoReady = true;
