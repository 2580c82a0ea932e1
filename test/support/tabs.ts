import type { AgentChat } from '../../src/agent-chat.js';
import { keyStats, storageKeyFor } from './server.js';
import { until } from './element.js';

/**
 * "Tabs" for tests of what tabs share (`persist="local"`, docs/protocol.md "Tabs share one
 * conversation"). Each is a same-origin frame with a page of its own: it shares
 * localStorage, BroadcastChannel and Web Locks with the others, as tabs do.
 */
export interface Tab {
  frame: HTMLIFrameElement;
  el: AgentChat;
}

const frames: HTMLIFrameElement[] = [];

export async function tab(key: string, attrs: Record<string, string> = {}, { locks = true } = {}): Promise<Tab> {
  const extra = Object.entries({ persist: 'local', ...attrs })
    .map(([name, value]) => `${name}="${value}"`)
    .join(' ');
  const frame = document.createElement('iframe');
  // A browser without Web Locks: the page hides them before the widget loads.
  const hide = locks ? '' : `<script>Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined });</script>`;
  frame.srcdoc = `<!doctype html><title>tab</title>${hide}
    <agent-chat base-url="${location.origin}" publishable-key="${key}" ${extra}></agent-chat>
    <script type="module">import '/src/agent-chat.ts';</script>`;
  document.body.append(frame);
  frames.push(frame);
  let el: AgentChat | null = null;
  await until(() => (el = frame.contentDocument?.querySelector('agent-chat') as AgentChat | null) && el.shadowRoot, 'a widget in the tab');
  if (attrs.mode !== 'launcher')
    await until(() => el!.status === 'idle' && el!.shadowRoot!.querySelector('[part="input"]'), 'the tab ready');
  return { frame, el: el! };
}

/** Closes every tab a test opened. */
export function closeTabs(): void {
  for (const frame of frames.splice(0)) frame.remove();
}

/** Counts the storage events a tab hears for `key`'s conversation: what the other tabs write there. */
export function storageWrites(frame: HTMLIFrameElement, key: string): { count: number } {
  const heard = { count: 0 };
  const name = storageKeyFor(key);
  frame.contentWindow!.addEventListener('storage', (event) => event.key === name && heard.count++);
  return heard;
}

export const texts = (el: AgentChat) => el.messages.map((m) => m.text);
export const agentText = (el: AgentChat) => el.messages.filter((m) => m.role === 'agent').at(-1)?.text ?? '';
export const streams = async (key: string) => (await keyStats(key)).requests.filter((r) => r.path === '/messaging/v1/messages/stream');
