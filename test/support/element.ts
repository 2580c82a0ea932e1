import { oneEvent, waitUntil } from '@open-wc/testing';
import '../../src/agent-chat.js';
import type { AgentChat } from '../../src/agent-chat.js';
import { BASE_URL } from './server.js';

// The lazy feature chunks, fetched once up front: the dev server transforms them on first
// request, which under a loaded test run can take longer than a render waits for a chunk.
// Chunk loading itself (and a chunk that is missing) is tested on the production bundle
// (test/security/csp.test.ts); a page without the lexer in test/element/lexer.test.ts.
// Through the widget's own lists (src/chunks.ts, src/markdown/chunks.ts, the features' specs), so the chunks count as arrived.
const chunks = await import('../../src/chunks.js');
const markdown = await import('../../src/markdown/chunks.js');
const { FEATURES } = await import('../../src/panel/features.js');
await Promise.all([
  (await import('../../src/shell/chunks.js')).panel(),
  ...Object.values(FEATURES)
    .filter((feature) => feature !== FEATURES.preview && feature !== FEATURES.voice)
    .map((feature) => feature.load()),
  chunks.turns(),
  chunks.recovery(),
  chunks.plain(),
  chunks.reading(),
  chunks.recall(),
  markdown.tail(),
  markdown.lexer(),
]);

const mounted = new Set<HTMLElement>();

/**
 * Puts an `<agent-chat>` on the page the way a host would (attributes first, then into the
 * document) and waits for `agent-chat-ready` unless told not to. A closed launcher calls
 * no service until it is opened: it is ready once the shell has rendered.
 */
export async function mount(attrs: Record<string, string>, props: Partial<AgentChat> = {}, { ready = true } = {}): Promise<AgentChat> {
  const el = document.createElement('agent-chat');
  el.setAttribute('base-url', BASE_URL);
  el.setAttribute('persist', 'none');
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  Object.assign(el, props);
  const closedLauncher = attrs.mode === 'launcher' && !('open' in attrs);
  const loaded = ready && !closedLauncher ? oneEvent(el, 'agent-chat-ready') : null;
  document.body.append(el);
  mounted.add(el);
  if (loaded) await loaded;
  await el.updateComplete;
  return el;
}

/** An `<agent-chat>` with these attributes, not in the document yet: a test listens first, then appends it. */
export function element(attrs: Record<string, string>): AgentChat {
  const el = document.createElement('agent-chat');
  for (const [name, value] of Object.entries({ 'base-url': BASE_URL, ...attrs })) el.setAttribute(name, value);
  return el;
}

/**
 * Opens a launcher for the first time and waits for its conversation: a closed launcher
 * calls the service only once it opens.
 */
export async function openLauncher(el: AgentChat): Promise<void> {
  const loaded = oneEvent(el, 'agent-chat-ready');
  el.open();
  await loaded;
  await el.updateComplete;
}

export function unmountAll(): void {
  for (const el of mounted) el.remove();
  mounted.clear();
}

export function $(el: AgentChat, selector: string): HTMLElement | null {
  return el.shadowRoot!.querySelector<HTMLElement>(selector);
}

export function $$(el: AgentChat, selector: string): HTMLElement[] {
  return Array.from(el.shadowRoot!.querySelectorAll<HTMLElement>(selector));
}

export function input(el: AgentChat): HTMLTextAreaElement {
  return $(el, '[part="input"]') as HTMLTextAreaElement;
}

/** Types like a user: the value changes and an `input` event fires. */
export async function type(el: AgentChat, text: string): Promise<void> {
  const field = input(el);
  field.focus();
  field.value = text;
  field.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  await el.updateComplete;
}

/** Types and presses the send button; resolves when the turn has ended. */
export async function sendByUser(el: AgentChat, text: string): Promise<void> {
  await type(el, text);
  ($(el, '[part="send-button"]') as HTMLButtonElement).click();
  await waitUntil(() => el.status !== 'connecting' && el.status !== 'streaming' && el.status !== 'reconnecting', 'turn did not end', {
    timeout: 8000,
  });
  await el.updateComplete;
}

/** Waits for `predicate`; `message` may be a function, to say what was shown when the wait ran out. */
export async function until(
  predicate: () => unknown,
  message: string | (() => string) = 'condition not met',
  timeout = 8000,
): Promise<void> {
  try {
    await waitUntil(predicate, typeof message === 'string' ? message : 'condition not met', { timeout, interval: 10 });
  } catch (error) {
    if (typeof message === 'string') throw error;
    throw new Error(`Timeout: ${message()}`);
  }
}

export function agentTexts(el: AgentChat): string[] {
  return $$(el, '.message.agent:not(.welcome) [part="text"]').map((n) => n.textContent!.trim());
}

export function collect<T = unknown>(el: EventTarget, type: string): T[] {
  const seen: T[] = [];
  el.addEventListener(type, (e) => seen.push((e as CustomEvent<T>).detail));
  return seen;
}
