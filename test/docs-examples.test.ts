/**
 * The API reference's examples are code. For the package's public entries (package.json "exports":
 * `pippin`, `pippin/<curve>`, `pippin/kzg`, `pippin/snarkjs`): every export carries at least one
 * `@example` (members' and module comments' examples are checked too); every example type-checks
 * (strict, as a user's module importing the package, the imports pointed at the sources); and every
 * example runs in this process and logs exactly what its comments say: each `console.log(…)` line
 * ends in `// → output` (as Node prints it), so a wrong result fails here.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { format } from 'node:util';
import ts from 'typescript';
import { stopThreads } from '../src/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Package specifier → source file (the "exports" map of package.json, with dist/ read as src/). */
const ENTRIES: Record<string, string> = {
  pippin: 'src/index.ts',
  'pippin/kzg': 'src/kzg/index.ts',
  'pippin/snarkjs': 'src/snarkjs/index.ts',
  'pippin/evm': 'src/evm/index.ts',
  ...Object.fromEntries(
    readdirSync(join(root, 'src/wasm-generated/entries'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => [`pippin/${f.slice(0, -3)}`, `src/wasm-generated/entries/${f}`]),
  ),
};

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: ['node'],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
};

interface Example {
  /** `pippin/kzg#loadKzg` */
  owner: string;
  code: string;
}

/** The code of each `@example` tag (its fenced block, or the whole tag text without a fence). */
function examplesOf(tags: readonly ts.JSDocTagInfo[]): string[] {
  return tags
    .filter((t) => t.name === 'example')
    .map((t) => {
      const text = ts.displayPartsToString(t.text);
      const fenced = /```[a-z]*\n([\s\S]*?)```/.exec(text);
      return (fenced ? fenced[1] : text).trim();
    });
}

/** Every export of every entry, with its examples (re-exports resolved to their declaration). */
function collect(): { examples: Example[]; missing: string[] } {
  const program = ts.createProgram(Object.values(ENTRIES).map((f) => join(root, f)), OPTIONS);
  const checker = program.getTypeChecker();
  const examples: Example[] = [];
  const missing: string[] = [];
  const seen = new Set<ts.Symbol>();
  for (const [spec, file] of Object.entries(ENTRIES)) {
    const source = program.getSourceFile(join(root, file));
    assert.ok(source, file);
    // the module comment (the one with @module): its examples too
    const moduleComment = /\/\*\*((?:(?!\*\/)[\s\S])*?@module[\s\S]*?)\*\//.exec(source.text);
    if (moduleComment) {
      const body = moduleComment[1].replace(/^[ \t]*\* ?/gm, '');
      for (const [, code] of body.matchAll(/@example\s*```[a-z]*\n([\s\S]*?)```/g)) examples.push({ owner: `${spec} (module)`, code: code.trim() });
    }
    const moduleSymbol = checker.getSymbolAtLocation(source);
    assert.ok(moduleSymbol, `${file} is a module`);
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const code = examplesOf(symbol.getJsDocTags(checker));
      if (code.length === 0) missing.push(`${spec}#${exported.name}`);
      if (seen.has(symbol)) continue;
      seen.add(symbol);
      for (const c of code) examples.push({ owner: `${spec}#${exported.name}`, code: c });
      // members' examples (class and interface members) are checked too, not required
      symbol.members?.forEach((member, name) => {
        for (const c of examplesOf(member.getJsDocTags(checker))) examples.push({ owner: `${spec}#${exported.name}.${String(name)}`, code: c });
      });
    }
  }
  return { examples, missing };
}

/** An example as a module of its own, its package imports pointed at the sources. */
function moduleText(code: string, dir: string): string {
  const rewritten = code.replace(/from '(pippin(?:\/[a-z0-9-]+)?)'/g, (_, spec: string) => {
    const file = ENTRIES[spec];
    assert.ok(file, `an example imports ${spec}, which is not an entry`);
    return `from '${relative(dir, join(root, file)).replace(/\.ts$/, '.js')}'`;
  });
  return `${rewritten}\nexport {};\n`;
}

describe('API reference examples', () => {
  const { examples, missing } = collect();
  mkdirSync(join(root, '.scratch'), { recursive: true }); // gitignored
  const dir = mkdtempSync(join(root, '.scratch', 'docs-examples-'));
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    stopThreads();
    // the snarkjs examples built ffjavascript's shared curves (with workers)
    for (const name of ['curve_bn128', 'curve_bls12381']) await (globalThis as unknown as Record<string, { terminate?: () => Promise<void> } | undefined>)[name]?.terminate?.();
  });
  const files = examples.map((e, i) => {
    const file = join(dir, `example-${String(i).padStart(3, '0')}.ts`);
    writeFileSync(file, moduleText(e.code, dir));
    return file;
  });

  it('every export of the public entries has an @example', () => {
    assert.ok(examples.length > 0);
    assert.deepEqual(missing, []);
  });

  it('every example type-checks against the sources', () => {
    // snarkjs and ffjavascript ship no typings: a user declares them (untyped)
    const shims = [join(dir, 'vendor.d.ts')];
    writeFileSync(shims[0], "declare module 'snarkjs';\ndeclare module 'ffjavascript';\n");
    const program = ts.createProgram([...files, ...shims], OPTIONS);
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file === undefined || files.includes(resolve(d.file.fileName)))
      .map((d) => {
        const at = d.file ? files.indexOf(resolve(d.file.fileName)) : -1;
        const where = at >= 0 ? `${examples[at].owner} (line ${d.file!.getLineAndCharacterOfPosition(d.start ?? 0).line + 1})` : '';
        return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
    assert.deepEqual(diagnostics, []);
  });

  it('every example runs and logs what its comments say', async () => {
    const log = console.log;
    const failures: string[] = [];
    try {
      for (const [i, file] of files.entries()) {
        const { owner, code } = examples[i];
        // `console.log(…); // → text`: the line logged, as Node prints it
        const expected = code.split('\n').filter((l) => /console\.log\(/.test(l)).map((l) => {
          const m = / \/\/ → (.*)$/.exec(l);
          assert.ok(m, `${owner}: a console.log without its output (// → …): ${l.trim()}`);
          return m[1];
        });
        const logged: string[] = [];
        console.log = (...args: unknown[]) => void logged.push(format(...args));
        try {
          await import(pathToFileURL(file).href);
        } catch (e) {
          failures.push(`${owner} threw: ${e instanceof Error ? e.stack : String(e)}`);
          continue;
        } finally {
          console.log = log;
        }
        if (JSON.stringify(logged) !== JSON.stringify(expected)) failures.push(`${owner} logged ${JSON.stringify(logged)}, its comments say ${JSON.stringify(expected)}`);
      }
    } finally {
      console.log = log;
    }
    assert.deepEqual(failures, []);
  });
});
