/**
 * Chromium with or without the wide-arithmetic flag, a blank page holding the field runner
 * (./field-runner.ts bundled as `pippinFieldRunner`), and the field modules to load into it: shared
 * by test/browser/wide64.browser.test.ts and `npm run bench:field -- --browser`. Node only.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { devFieldBinary } from './dev-instance.js';
import type { RunnerModule } from './field-runner.js';
import type { FieldSpec } from '../codegen/field.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** V8's flag for the wide-arithmetic proposal (Chromium 156 has it off by default) */
export const WIDE_FLAG = '--js-flags=--wasm-wide-arithmetic';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The runner as a classic script defining `window.pippinFieldRunner`. */
export async function runnerScript(): Promise<string> {
  const r = await esbuild({
    entryPoints: [join(root, 'src', 'testing', 'field-runner.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'pippinFieldRunner',
    platform: 'browser',
    target: 'es2020',
    logLevel: 'silent',
  });
  return r.outputFiles[0].text;
}

export async function launchChromium(wideFlag: boolean): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    timeout: 30_000,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', ...(wideFlag ? [WIDE_FLAG] : [])],
  });
}

/** A blank page with the runner loaded. */
export async function runnerPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(120_000);
  await page.setContent('<!doctype html><title>pippin field runner</title>');
  await page.addScriptTag({ content: await runnerScript() });
  return page;
}

/** One field `fp` as a runner module: w = 64 native or polyfilled, or w ≤ 30. */
export async function runnerModule(label: string, field: Omit<FieldSpec, 'name'>, wide: 'native' | 'polyfill' = 'native'): Promise<RunnerModule> {
  const { wasm, infos } = await devFieldBinary(label, [{ name: 'fp', ...field }], wide);
  const info = infos[0];
  return { label, wasmBase64: Buffer.from(wasm).toString('base64'), info: { ...info, p: `0x${info.p.toString(16)}` } };
}
