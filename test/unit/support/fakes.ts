/**
 * Stand-ins for what the conversation's logic talks to, so its decisions run in Node: an
 * element (events, `isConnected`, the controller protocol) and a client whose answers a
 * test scripts. They stand for the browser and the service; the browser suite tests the
 * real ones against the reference server.
 */
import type { ReactiveController } from '@lit/reactive-element';
import type { AgentClient } from '../../../src/client/client.js';
import { ApiError, type ApiErrorInit } from '../../../src/client/errors.js';
import type { StreamHandlers, StreamOptions } from '../../../src/client/stream.js';
import type { Message, RerunBody, SendMessageBody } from '../../../src/client/types.js';
import { ChatController } from '../../../src/state/chat-controller.js';
import type { ConversationCode } from '../../../src/state/code.js';
import { chunk } from '../../../src/lazy.js';
import type { ChatConfig } from '../../../src/state/types.js';

export const THREAD = 'a'.repeat(24);
export const OTHER_THREAD = 'b'.repeat(24);
export const REPLY_ID = 'c'.repeat(24);

/** The element as the controller sees it: an event target with the controller protocol. */
export class FakeHost extends EventTarget {
  isConnected = true;
  readonly controllers: ReactiveController[] = [];
  updates = 0;
  readonly updateComplete = Promise.resolve(true);

  addController(controller: ReactiveController): void {
    this.controllers.push(controller);
  }

  removeController(): void {}

  requestUpdate(): void {
    this.updates += 1;
  }

  /** Every event of `type` fired from now on, by detail. */
  events<T = unknown>(type: string): T[] {
    const seen: T[] = [];
    this.addEventListener(type, (event) => seen.push((event as CustomEvent<T>).detail));
    return seen;
  }
}

/** A reply of the agent as the service sends it. */
export const reply = (text: string, over: Partial<Message> = {}): Message => ({
  id: REPLY_ID,
  text,
  sender: { type: 'agent' },
  cards: [],
  ...over,
});
export const question = (text: string, id = REPLY_ID): Message => ({ id, text, sender: { type: 'user' }, cards: [] });

export type TurnScript = (body: SendMessageBody, handlers: StreamHandlers, opts: StreamOptions) => Promise<Message | null>;

/** A service whose every answer a test can set; records the turns and reruns asked. */
export class FakeClient {
  welcome = 'Hi {{name}}!';
  starters = ['Track my order'];
  transcripts = new Map<string, Message[] | ApiError>();
  /** How the next turns go; by default: the thread, two tokens and the final reply. */
  script: TurnScript = async (body, handlers) => {
    handlers.onThread?.(body.thread_id ?? THREAD);
    handlers.onToken?.('Hel', 1);
    handlers.onToken?.('lo', 2);
    return reply('Hello.');
  };
  rerunScript: (threadId: string, body: RerunBody, signal?: AbortSignal) => Promise<{ thread_id: string; message: Message }> =
    async () => ({
      thread_id: OTHER_THREAD,
      message: reply('Again.', { id: 'd'.repeat(24) }),
    });
  loadError: ApiError | null = null;
  readonly turns: Array<{ transport: string; body: SendMessageBody; resume?: StreamOptions['resume']; key?: string }> = [];
  readonly reruns: Array<{ threadId: string; body: RerunBody }> = [];
  readonly calls: string[] = [];

  /**
   * The next turns name the thread, then wait: the returned `finish()` ends the waiting one
   * with `final` as its reply (a turn that runs while the test does something else).
   */
  hold(final: string): () => void {
    let finish: () => void = () => undefined;
    this.script = (_, handlers) =>
      new Promise((resolve) => {
        handlers.onThread?.(THREAD);
        finish = () => resolve(reply(final));
      });
    return () => finish();
  }

  async welcomeMessage(): Promise<string> {
    this.calls.push('welcome');
    if (this.loadError) throw this.loadError;
    return this.welcome;
  }

  async transcript(threadId: string): Promise<Message[]> {
    this.calls.push(`transcript ${threadId}`);
    const found = this.transcripts.get(threadId);
    if (found instanceof ApiError) throw found;
    if (!found) throw new ApiError({ kind: 'http', status: 404, message: 'Thread not found' });
    return found;
  }

  async followupSuggestions(): Promise<string[]> {
    this.calls.push('suggestions');
    return this.starters;
  }

  async turn(transport: string, body: SendMessageBody, handlers: StreamHandlers, opts: StreamOptions = {}): Promise<Message | null> {
    this.turns.push({ transport, body, resume: opts.resume, key: opts.idempotencyKey });
    return this.script(body, handlers, opts);
  }

  async rerun(threadId: string, body: RerunBody, opts: { signal?: AbortSignal } = {}) {
    this.reruns.push({ threadId, body });
    return this.rerunScript(threadId, body, opts.signal);
  }

  prefetchStreaming(): void {}
  close(): void {}
}

export const apiError = (init: Partial<ApiErrorInit> & Pick<ApiErrorInit, 'kind'>) => new ApiError({ message: 'x', ...init });

export const config = (over: Partial<ChatConfig> = {}): ChatConfig => ({
  baseUrl: 'https://agents.example',
  publishableKey: 'pk_test',
  transport: 'sse',
  persist: 'none',
  agentVariables: { static: { name: 'Ada' } },
  maxReplyLength: 200_000,
  ...over,
});

const hosts: FakeHost[] = [];

/**
 * Takes every conversation of the test off the page (`hostDisconnected`): a conversation
 * left behind keeps listening to the other tabs (storage, BroadcastChannel) and its timers
 * run on, so it would take part in the next test. Call it in `afterEach`.
 */
export function disconnectAll(): void {
  for (const host of hosts.splice(0)) {
    host.isConnected = false;
    for (const controller of host.controllers) controller.hostDisconnected?.();
  }
}

/** A controller on a fake element and service, configured and active (its first load done). */
export async function conversation(over: Partial<ChatConfig> = {}, client = new FakeClient()) {
  const host = new FakeHost();
  hosts.push(host);
  const chat = new ChatController(host as unknown as HTMLElement & FakeHost, {
    code,
    createClient: () => client as unknown as AgentClient,
  });
  const events = {
    ready: host.events('agent-chat-ready'),
    error: host.events<{ code: string }>('agent-chat-error'),
    message: host.events<{ message: Message }>('agent-chat-message'),
    thread: host.events<{ threadId: string | null; reason: string }>('agent-chat-thread'),
    send: host.events<{ text: string }>('agent-chat-send'),
  };
  chat.configure(config(over));
  chat.activate();
  await settled();
  return { host, chat, client, events };
}

/**
 * Lets every pending promise (a scripted answer, a chunk already imported) run: microtasks
 * only, so it works the same under fake timers. The chunks the logic loads are imported
 * once up front (`preload`).
 */
export async function settled(): Promise<void> {
  for (let i = 0; i < 100; i++) await Promise.resolve();
}

/** The conversation's lazy code, as the panel hands it in (src/chunks.ts): the modules themselves, in Node. */
export const code: ConversationCode = {
  turns: chunk(() => import('../../../src/state/turns.js')),
  recovery: chunk(() => import('../../../src/continuity/recover.js')),
  stream: chunk(() => import('../../../src/client/stream.js')),
  websocket: chunk(() => import('../../../src/client/websocket.js')),
};

/** The chunks a conversation loads (its turns, recovery), imported before any test runs. */
export async function preload(): Promise<void> {
  await Promise.all([code.turns(), code.recovery()]);
}
