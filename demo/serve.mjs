// Tiny static server for demo/ (no dependencies), loopback only.
//   node demo/serve.mjs [--no-isolation]      PORT=8080 by default; PORT=0 picks a free port
// By default every response carries Cross-Origin-Opener-Policy: same-origin and
// Cross-Origin-Embedder-Policy: require-corp (so the page is crossOriginIsolated, as
// SharedArrayBuffer threads will need); --no-isolation (or DEMO_ISOLATION=0) omits them.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, extname, join, normalize, sep } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));

const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
};

/** Starts the server; resolves with { server, port, url, close() }. */
export function startServer({ port = 8080, host = '127.0.0.1', isolation = true, root = here } = {}) {
  const server = createServer(async (req, res) => {
    const headers = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };
    if (isolation) {
      headers['Cross-Origin-Opener-Policy'] = 'same-origin';
      headers['Cross-Origin-Embedder-Policy'] = 'require-corp';
    }
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, headers).end('method not allowed');
        return;
      }
      let path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      if (path.endsWith('/')) path += 'index.html';
      const file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) {
        res.writeHead(403, headers).end('forbidden');
        return;
      }
      const st = await stat(file).catch(() => undefined);
      if (!st || !st.isFile()) {
        res.writeHead(404, { ...headers, 'Content-Type': 'text/plain' }).end('not found');
        return;
      }
      const body = await readFile(file);
      res.writeHead(200, { ...headers, 'Content-Type': types[extname(file)] ?? 'application/octet-stream', 'Content-Length': body.length });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (e) {
      res.writeHead(500, headers).end(String(e));
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const actual = server.address().port;
      resolve({
        server,
        port: actual,
        url: `http://${host}:${actual}/`,
        close: () =>
          new Promise((res) => {
            server.closeAllConnections?.();
            server.close(() => res());
          }),
      });
    });
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const isolation = !process.argv.includes('--no-isolation') && process.env.DEMO_ISOLATION !== '0';
  const port = Number(process.env.PORT ?? 8080);
  const { url } = await startServer({ port, isolation });
  console.log(`pippin demo: ${url}  (COOP/COEP headers ${isolation ? 'on' : 'off'}; Ctrl-C to stop)`);
}
