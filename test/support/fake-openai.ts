import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible chat-completions endpoint on the loopback address, for the
 * reference server's model agent (server/src/agents/model-agent.ts). It streams the way OpenAI,
 * Ollama and vLLM do (`chat.completion.chunk` SSE frames, a usage chunk, `[DONE]`), and
 * answers by what the question says:
 * - "busy": 429, as a rate-limited API does;
 * - "down": 503, as an overloaded or restarting API does;
 * - "broken": two deltas, then the connection drops;
 * - "unfinished": two deltas, then the stream ends cleanly without a finish reason or `[DONE]`;
 * - "hangs": the stream's headers, then nothing (until the client gives up);
 * - "silent": no answer at all (until the client gives up);
 * - "html": 200 with a proxy's HTML page instead of a stream;
 * - anything else: `Echo: <question>` word by word, 20 ms apart.
 * Every request is kept so a test can see what the model was sent.
 */
export interface FakeModel {
  /** `http://127.0.0.1:<port>/v1`: what OPENAI_BASE_URL would say. */
  baseURL: string;
  /** The bodies received, oldest first. */
  requests: Array<{ model: string; messages: Array<{ role: string; content: unknown }>; authorization: string | undefined }>;
  close(): Promise<void>;
}

export const FAKE_USAGE = { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 };

async function body(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return JSON.parse(text);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: { text?: string }) => part.text ?? '').join('');
  return '';
}

export async function startFakeModel(): Promise<FakeModel> {
  const requests: FakeModel['requests'] = [];
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    void body(req).then(async (parsed) => {
      const request = parsed as { model: string; messages: FakeModel['requests'][number]['messages'] };
      requests.push({ model: request.model, messages: request.messages, authorization: req.headers.authorization });
      const question = textOf(request.messages.at(-1)?.content);
      if (question.includes('silent')) return;
      if (question.includes('html')) {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!doctype html><title>Sign in</title><p>Please sign in to the proxy.</p>');
        return;
      }
      if (question.includes('down')) {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'Service unavailable', type: 'server_error' } }));
        return;
      }
      if (question.includes('busy')) {
        // As OpenAI's API does: how long to wait.
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '20' });
        res.end(JSON.stringify({ error: { message: 'Rate limit reached', type: 'rate_limit_error' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const frame = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
        frame({
          id: 'chatcmpl-fake',
          object: 'chat.completion.chunk',
          created: 0,
          model: request.model,
          choices: [{ index: 0, delta, finish_reason: finish }],
        });
      const words = `Echo: ${question}`.match(/\s*\S+/g) ?? [];
      chunk({ role: 'assistant', content: '' });
      if (question.includes('hangs')) return;
      for (const [i, word] of words.entries()) {
        if (question.includes('broken') && i === 2) {
          res.destroy();
          return;
        }
        if (question.includes('unfinished') && i === 2) {
          res.end();
          return;
        }
        chunk({ content: word });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      chunk({}, 'stop');
      frame({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model: request.model, choices: [], usage: FAKE_USAGE });
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
