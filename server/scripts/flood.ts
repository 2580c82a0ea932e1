/**
 * Fills the reference server to its limits and reports what it then holds, in counted
 * bytes (limits.ts) and in the process's heap and RSS: the measurement behind README.md
 * "Limits and memory". In process, through `app.fetch`: no socket.
 *
 *   node --expose-gc --import tsx server/scripts/flood.ts [demoThreads] [mintedKeys]
 *
 * 1. The demo key: `demoThreads` new threads, one product question each (the longest
 *    replies the demo agent writes: a list, three cards, suggestions), its rate lifted so
 *    only what it may keep binds.
 * 2. `mintedKeys` minted keys, each asked 40 turns of a 200 KB scripted reply: more than a
 *    minted key's budget each, and more than the minted keys' together.
 */
import { createReferenceServer, DEMO_PUBLISHABLE_KEY } from '../src/app.js';

const demoThreads = Number(process.argv[2] ?? 4000);
const mintedKeys = Number(process.argv[3] ?? 24);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('Run with node --expose-gc (see the comment at the top).');

const MiB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MiB).toFixed(1)} MB`;

const { app } = createReferenceServer({
  paceMs: 0,
  faults: true,
  limits: { demo: { perSecond: 1e5, burst: 1e6, runningTurns: 1000 }, minted: { perSecond: 1e5, burst: 1e6 } },
});
const call = async <T>(path: string, body?: unknown, token?: string): Promise<T> => {
  const res = await app.fetch(
    new Request(`http://flood.test${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};
const token = async (key: string) =>
  (await call<{ access_token: string }>('/management/v1/auth/token', { publishable_key: key })).access_token;

function measure(label: string, counted: number): void {
  gc!();
  const { heapUsed, heapTotal, rss } = process.memoryUsage();
  console.log(
    `${label.padEnd(26)} counted ${mb(counted).padStart(9)}  heap used ${mb(heapUsed).padStart(9)}  heap total ${mb(heapTotal).padStart(9)}  rss ${mb(rss).padStart(9)}`,
  );
}

const health = () => call<{ threads: number; keys: number; bytes: number }>('/__demo/health');
measure('empty', (await health()).bytes);
const baseHeap = process.memoryUsage().heapUsed;

const started = performance.now();
const demo = await token(DEMO_PUBLISHABLE_KEY);
const questions = ['Show me running shoes', 'Waterproof jackets under $200', 'Which daypack for a weekend hike?', 'Compare your backpacks'];
for (let i = 0; i < demoThreads; i += 200) {
  await Promise.all(
    Array.from({ length: Math.min(200, demoThreads - i) }, (_, j) =>
      call('/messaging/v1/messages', { text: `${questions[(i + j) % questions.length]} ${i + j}`, user_id: `visitor-${i + j}` }, demo),
    ),
  );
}
let h = await health();
console.log(`demo key: ${demoThreads} threads asked, ${h.threads} kept (${((performance.now() - started) / 1000).toFixed(1)} s)`);
measure('demo key full', h.bytes);
const demoHeap = process.memoryUsage().heapUsed - baseHeap;
const demoCounted = h.bytes;

const reply = 'lorem ipsum dolor sit amet '.repeat(7600); // ~200 KB
for (let k = 0; k < mintedKeys; k++) {
  const { publishable_key } = await call<{ publishable_key: string }>('/__demo/keys', {
    paceMs: 0,
    chunkChars: 8000,
    replies: [{ text: reply }],
  });
  const t = await token(publishable_key);
  for (let i = 0; i < 40; i++) await call('/messaging/v1/messages', { text: `turn ${i}`, user_id: 'tester' }, t);
}
h = await health();
console.log(`minted: ${mintedKeys} keys × 40 turns of ${mb(reply.length)}; ${h.keys - 1} keys and ${h.threads} threads kept`);
measure('demo and minted keys full', h.bytes);
console.log(
  `heap per counted byte: demo key ${(demoHeap / demoCounted).toFixed(2)}, everything ${((process.memoryUsage().heapUsed - baseHeap) / h.bytes).toFixed(2)}`,
);
