import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real nginx (Debian's package) in front of servers, for the tests of streams through a
 * proxy and of instances behind a load balancer (issue #39): the browser suite's
 * (test/element/proxy.test.ts, through web-test-runner.config.mjs) and rolling.test.ts. Each
 * site is one `server` block on a port of its own, passing every request to the upstream
 * servers in turn, with the settings a test needs on top of nginx's defaults
 * (`proxy_buffering on`, HTTP/1.0 to the upstream, a 60 s read timeout); the server's own
 * headers decide the rest.
 */
export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

export interface Nginx {
  /** The port of each site, by name. */
  ports: Record<string, number>;
  /** What nginx logged at `warn` and above: why it answered 502, for one. */
  log(): string;
  stop(): void;
}

/** A port free on the loopback address right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A server nginx passes requests to: an address (`[::1]` for IPv6) and a port. */
export interface Upstream {
  host: string;
  port: number;
  /** Its parameters in an upstream group (`max_fails=1 fail_timeout=2s`). */
  params?: string;
}

/** Starts nginx proxying each site to `upstreams`; resolves once every port answers. */
export async function startNginx(upstreams: readonly Upstream[], sites: Record<string, string>): Promise<Nginx> {
  // `npm test` installs it first (scripts/browsers.mjs).
  if (!existsSync(NGINX)) throw new Error(`nginx is not installed (${NGINX}): sudo apt-get install -y nginx`);
  const dir = mkdtempSync(join(tmpdir(), 'agent-chat-nginx-'));
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, temp));
  // One server is named by its address, as a plain `proxy_pass` would; several make an
  // upstream group, whose name nginx sends as `Host` unless a site sets it (the server
  // answers no such name: 421).
  const one = upstreams.length === 1 ? upstreams[0]! : null;
  const target = one ? `${one.host}:${one.port}` : 'servers';
  const ports: Record<string, number> = {};
  for (const name of Object.keys(sites)) ports[name] = await freePort();
  const servers = Object.entries(sites).map(
    ([name, extra]) => `
    server {
      listen 127.0.0.1:${ports[name]};
      location / {
        proxy_pass http://${target};
        ${extra}
      }
    }`,
  );
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;
    master_process off;
    worker_processes 1;
    pid ${dir}/nginx.pid;
    error_log ${dir}/error.log warn;
    events { worker_connections 512; }
    http {
      access_log off;
      client_body_temp_path ${dir}/body;
      proxy_temp_path ${dir}/proxy;
      fastcgi_temp_path ${dir}/fastcgi;
      uwsgi_temp_path ${dir}/uwsgi;
      scgi_temp_path ${dir}/scgi;
      ${one ? '' : `upstream servers { ${upstreams.map(({ host, port, params = '' }) => `server ${host}:${port} ${params};`).join(' ')} }`}
      ${servers.join('\n')}
    }
    `,
  );
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-e', join(dir, 'error.log'), '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  child.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`nginx exited (${code}) at start: ${said.trim()}`))),
  );
  exited.catch(() => {});
  const answers = async (port: number) => {
    for (;;) {
      try {
        await fetch(`http://127.0.0.1:${port}/health`);
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };
  await Promise.race([Promise.all(Object.values(ports).map(answers)), exited]);
  return {
    ports,
    log: () => (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : ''),
    stop() {
      child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
