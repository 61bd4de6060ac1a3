/**
 * Serves a directory with Debian's nginx on 127.0.0.1 (one worker process, keep-alive, no access
 * log), the server issue 14 first measured with. Serving costs the crawlers' two cores less than
 * `static-server.mjs` (Node's HTTP stack, a `stat` and a `readFile` per request), so the crawler
 * that is bound by CPU is measured, not the server beside it.
 *
 *   import { startNginx } from './nginx-server.mjs';
 *   const server = await startNginx('/usr/share/doc/cmake-data/html');   // { url, stop() }
 *
 * `nginxPath()` is where the binary is, or undefined when nginx is not installed
 * (`apt-get install -y nginx-light`).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function nginxPath() {
  return ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
}

/** A port nobody listens on now. */
async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function configuration(root, port, work) {
  const temp = (name) => join(work, name);
  return `daemon off;
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${temp('nginx.pid')};
error_log ${temp('error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
  types { text/html html htm; text/css css; text/javascript js; text/plain txt; image/png png; image/svg+xml svg; }
  default_type application/octet-stream;
  charset utf-8;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 30s;
  keepalive_requests 1000000;
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  server {
    listen 127.0.0.1:${port};
    root ${root};
    index index.html;
  }
}
`;
}

/** Starts nginx on `root`; resolves once it answers. */
export async function startNginx(root) {
  const binary = nginxPath();
  if (!binary) throw new Error('nginx is not installed: apt-get install -y nginx-light');
  const work = mkdtempSync(join(tmpdir(), 'quarry-nginx-'));
  for (const name of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(work, name));
  const port = await freePort();
  const conf = join(work, 'nginx.conf');
  writeFileSync(conf, configuration(root, port, work));
  const child = spawn(binary, ['-c', conf, '-p', work, '-e', join(work, 'error.log')], { stdio: ['ignore', 'ignore', 'inherit'] });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const url = `http://127.0.0.1:${port}/`;
  for (let attempt = 0; ; attempt++) {
    if (exited) throw new Error(`nginx exited at start (see ${join(work, 'error.log')})`);
    try {
      await fetch(url, { method: 'HEAD' });
      break;
    } catch {
      if (attempt > 100) throw new Error('nginx did not answer within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    stop: () => {
      child.kill('SIGQUIT');
      child.once('exit', () => rmSync(work, { recursive: true, force: true }));
    },
  };
}
