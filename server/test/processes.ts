import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { openDb } from '../src/store/db.js';

/** The server run as its own process (restart.test.ts, instances.test.ts). */
const running = new Set<ChildProcess>();

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

export interface Started {
  base: string;
  child: ChildProcess;
  output: () => string;
}

/**
 * Starts the server in a process of its own, as the bin runs it, with the fault knobs on
 * and `env` (DATA_DIR or DATABASE_URL, ...); resolves with its address once it listens.
 * Every one still running is killed after the test file.
 */
export async function startServer(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('../src/main.ts', import.meta.url).pathname], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', REFERENCE_FAULTS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const base = await new Promise<string>((resolve, reject) => {
    const check = () => {
      // The banner's last line: everything it says is out.
      const match = /Reference server: (http:\/\/[\d.]+:\d+)[\s\S]*^Ready\.$/m.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', check);
    // `close`, not `exit`: by then everything it wrote has been read.
    child.once('close', (code) => reject(new Error(`the server exited (${code}) before it listened:\n${output}`)));
  });
  return { base, child, output: () => output };
}

export interface Frame {
  type: string;
  seq?: number;
  data: { thread_id?: string; text?: string; code?: string; status?: number };
}

/** Reads an SSE response frame by frame. */
export async function* frames(res: Response): AsyncGenerator<Frame | '[DONE]'> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    yield* read();
  } finally {
    // A reader that stopped early lets the connection go (the server may be killed next).
    await reader.cancel().catch(() => {});
  }
  async function* read(): AsyncGenerator<Frame | '[DONE]'> {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        if (data) yield data === '[DONE]' ? '[DONE]' : (JSON.parse(data) as Frame);
      }
    }
  }
}

/**
 * Instances that share TEST_DATABASE_URL's server in a schema of this test file's own
 * (`<prefix>_<pid>_<time>`), made before its tests and dropped after them; one signing key
 * and organization key for all. Nothing is registered without `url` (the file skips).
 */
export function sharedDatabase(url: string | undefined, prefix: string) {
  const schema = `${prefix}_${process.pid}_${Date.now()}`;
  beforeAll(async () => {
    if (!url) return;
    // Made here: the servers take the schema from their connection's search_path.
    const db = await openDb(url, { schema });
    await db.close();
  });
  afterAll(async () => {
    if (!url) return;
    const db = await openDb(url);
    await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await db.close();
  });
  return {
    schema,
    /** An instance on the shared database, with `env` on top. */
    instance(env: Record<string, string> = {}): Promise<Started> {
      const shared = new URL(url!);
      shared.searchParams.set('options', `-c search_path=${schema}`);
      return startServer({
        DATABASE_URL: shared.href,
        SIGNING_KEY: `${prefix}-test-signing-key-of-at-least-32-characters`,
        ORGANIZATION_API_KEY: `org_${prefix}_test_key`,
        ...env,
      });
    },
  };
}
