/** The demo page: form → runMsm → result, phases, plot and history. Also `window.runMsm` for tests. */
import { runMsm, curveNames, type CurveName, type RunResult } from './msm-run.js';
import type { Validation } from '../src/api/g1.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const form = $<HTMLFormElement>('form');
const curveSel = $<HTMLSelectElement>('curve');
const sizeSel = $<HTMLSelectElement>('logSize');
const seedIn = $<HTMLInputElement>('seed');
const validateSel = $<HTMLSelectElement>('validate');
const runBtn = $<HTMLButtonElement>('run');
const statusEl = $('status');
const resultEl = $('result');
const phasesEl = $('phases');
const plotEl = $('plot');
const historyBody = $('history').querySelector('tbody')!;

for (let k = 8; k <= 18; k++) {
  const o = document.createElement('option');
  o.value = String(k);
  o.textContent = `${k}  (n = ${(2 ** k).toLocaleString('en-US')})`;
  if (k === 12) o.selected = true;
  sizeSel.append(o);
}
$('coi').textContent = `crossOriginIsolated: ${globalThis.crossOriginIsolated === true ? 'yes' : 'no'}`;

const colors: Record<CurveName, string> = {
  'bls12-381': '#2f5fd0',
  bn254: '#d0632f',
  'bls12-377': '#7a3fc4',
  pallas: '#17803d',
  vesta: '#b8860b',
};
const runs: RunResult[] = [];
const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const nextFrame = () => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));

let busy: Promise<unknown> = Promise.resolve();

/** Runs one MSM (serialized with other runs), updates the page, returns the full result. */
function execute(params: { curve: CurveName; logSize: number; seed: number; validate: Validation }): Promise<RunResult> {
  const job = busy.then(async () => {
    runBtn.disabled = true;
    statusEl.className = 'status muted';
    statusEl.textContent = `running ${params.curve}, n = 2^${params.logSize}, seed ${params.seed}…`;
    await nextFrame();
    try {
      const res = await runMsm(params);
      runs.push(res);
      show(res);
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

function show(res: RunResult) {
  statusEl.className = `status ${res.ok ? 'ok' : 'bad'}`;
  statusEl.textContent = res.ok ? '✓ verified: matches (Σ sᵢ·aᵢ mod r)·G' : '✗ MISMATCH against the closed-form check';
  resultEl.innerHTML = `
    <div class="big">${fmt(res.ms)} ms</div>
    <div class="kv" style="margin-top:6px">
      <span>MSM</span><span>${esc(res.curve)} G1, n = 2^${res.logSize} = ${res.n.toLocaleString('en-US')}, seed ${res.seed}, validate '${esc(res.validate)}', window c = ${res.window}, 1 thread</span>
      <span>inputs</span><span>generated in ${fmt(res.genMs)} ms (not timed)</span>
      <span>verify</span><span>${fmt(res.verifyMs)} ms (bigint reference)</span>
      <span>x</span><span class="mono">${res.infinity ? 'point at infinity' : esc(res.x)}</span>
      <span>y</span><span class="mono">${res.infinity ? '' : esc(res.y)}</span>
    </div>`;
  const rows: [string, number][] = [
    ['input conversion + validation', res.phases.convert],
    ['scalar decomposition (GLV)', res.phases.split],
    ['scheduling prep', res.phases.prepare],
    ['bucket accumulation', res.phases.accumulate],
    ['bucket reduction', res.phases.reduce],
    ['final combination', res.phases.final],
  ];
  const max = Math.max(...rows.map((r) => r[1]), 1e-9);
  phasesEl.className = '';
  phasesEl.innerHTML = `<table><tbody>${rows
    .map(([name, v]) => `<tr><td>${name}</td><td>${fmt(v)}</td><td style="width:40%"><div class="bar" style="width:${((100 * v) / max).toFixed(1)}%"></div></td></tr>`)
    .join('')}<tr><td><b>total (g1.msm call)</b></td><td><b>${fmt(res.ms)}</b></td><td></td></tr></tbody></table>`;
  const tr = document.createElement('tr');
  tr.innerHTML = `<td>${runs.length}</td><td>${esc(res.curve)}</td><td>2^${res.logSize}</td><td>${res.seed}</td><td>${esc(res.validate)}</td><td>${res.window}</td><td>${fmt(res.ms)}</td><td>${fmt(res.genMs)}</td><td>${fmt(res.verifyMs)}</td><td class="${res.ok ? 'ok' : 'bad'}">${res.ok ? '✓ ok' : '✗ mismatch'}</td>`;
  historyBody.prepend(tr);
  plot();
}

/** Inline SVG: x = log2 n (8..18 or wider), y = MSM ms on a log scale, one series per curve+validate. */
function plot() {
  const W = 980, H = 300, L = 56, R = 150, T = 12, B = 36;
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
    const key = `${r.curve} · ${r.validate}`;
    if (!series.has(key)) series.set(key, []);
    series.get(key)!.push(r);
  }
  let li = 0;
  for (const [key, rs] of series) {
    const color = colors[rs[0].curve];
    const dash = rs[0].validate === 'full' ? '' : rs[0].validate === 'on-curve' ? '6 3' : '2 3';
    // line through the best (min) time per size
    const best = new Map<number, number>();
    for (const r of rs) best.set(r.logSize, Math.min(best.get(r.logSize) ?? Infinity, r.ms));
    const pts = [...best].sort((a, b) => a[0] - b[0]);
    if (pts.length > 1) s += `<polyline fill="none" stroke="${color}" stroke-width="1.8" stroke-dasharray="${dash}" points="${pts.map(([x, ms]) => `${px(x)},${py(ms)}`).join(' ')}"/>`;
    for (const r of rs) s += `<circle cx="${px(r.logSize)}" cy="${py(r.ms)}" r="3.5" fill="${color}"><title>${esc(key)}, 2^${r.logSize}: ${fmt(r.ms)} ms</title></circle>`;
    const ly = T + 10 + 18 * li++;
    s += `<line x1="${W - R + 12}" x2="${W - R + 32}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="2" stroke-dasharray="${dash}"/><text x="${W - R + 38}" y="${ly + 4}" style="fill:#1d2430">${esc(key)}</text>`;
  }
  s += '</svg>';
  plotEl.innerHTML = s;
}

form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  execute({
    curve: curveSel.value as CurveName,
    logSize: Number(sizeSel.value),
    seed: Number(seedIn.value) >>> 0,
    validate: validateSel.value as Validation,
  }).catch((e) => console.error(e));
});

declare global {
  interface Window {
    runMsm: (p: { curve: CurveName; logSize: number; seed?: number; validate?: Validation }) => Promise<{ x: string; y: string; infinity: boolean; ms: number; ok: boolean }>;
    pippinDemoReady: boolean;
  }
}

window.runMsm = async ({ curve, logSize, seed = 1, validate = 'full' }) => {
  if (!curveNames.includes(curve)) throw new Error(`unsupported curve ${curve}`);
  const r = await execute({ curve, logSize, seed, validate });
  return { x: r.x, y: r.y, infinity: r.infinity, ms: r.ms, ok: r.ok };
};

statusEl.textContent = 'ready: pick a curve and a size, then Run';
runBtn.disabled = false;
window.pippinDemoReady = true;
