/**
 * Command-line options of the benchmark runners: `--name value`, `--name=value`, and the listed
 * boolean flags (`--json`) that take no value. Anything else is an error.
 */
export function parseArgs(argv: string[], booleans: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) throw new Error(`unexpected argument ${a}`);
    const eq = a.indexOf("=");
    if (eq >= 0) out[a.slice(2, eq)] = a.slice(eq + 1);
    else if (booleans.includes(a.slice(2))) out[a.slice(2)] = "1";
    else out[a.slice(2)] = argv[++i] ?? "";
  }
  return out;
}
