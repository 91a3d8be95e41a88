// A plain static server for frontend/dist: files as they are, index.html for
// deep links. It has no back end: /api and /health answer 502 Bad Gateway, as
// the production web tier does while the API server is down. No API is faked.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

export async function startStaticServer(distDir, { host = '127.0.0.1', port = 0 } = {}) {
  const root = resolve(distDir);
  const indexHtml = await readFile(join(root, 'index.html'));

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const path = decodeURIComponent(url.pathname);
      if (path === '/api' || path.startsWith('/api/') || path === '/health') {
        res.writeHead(502, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
        return;
      }
      const file = normalize(join(root, path));
      if (file.startsWith(root + '/') && extname(file)) {
        const info = await stat(file).catch(() => null);
        if (info?.isFile()) {
          const body = await readFile(file);
          const immutable = file.includes('/assets/');
          res.writeHead(200, {
            'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
            'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
          });
          res.end(body);
          return;
        }
        if (path.startsWith('/assets/')) {
          res.writeHead(404, { 'Content-Type': 'text/plain' });
          res.end('Not found');
          return;
        }
      }
      res.writeHead(200, { 'Content-Type': TYPES['.html'], 'Cache-Control': 'no-cache' });
      res.end(indexHtml);
    } catch (err) {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(String(err));
    }
  });

  await new Promise((ok) => server.listen(port, host, ok));
  const address = server.address();
  return {
    url: `http://${host}:${address.port}`,
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}
