/**
 * The context `<agent-chat>` provides to the host's own elements (README "Context"): the
 * community context protocol that `@lit/context` implements, answered by the shell, so an
 * element in a slot has it before the panel is fetched, a closed launcher included.
 *
 * Why this handler and not `@lit/context`'s `ContextProvider`: every page view loads the
 * shell, and the provider is a `ValueNotifier` with a second listener (which hands
 * subscriptions over to a nearer provider of the same key, something a widget's slots do
 * not have): 0.86 KB gzip on its own, before the code that feeds it a value, where this
 * costs 0.29 KB in all. The other way,
 * the shell keeping the requests until a lazy chunk with the provider arrives, measured
 * 0.19 KB in the shell plus a 0.35 KB chunk, and it answers a request only after a fetch:
 * an element that reads the context as it connects would find nothing. What the protocol
 * asks of a provider is this much: answer a request for its key and stop it there, keep a
 * subscriber's callback with one disposer for it, call the callbacks when the value
 * changes, and announce itself (`context-provider`) when connected, so that a
 * `ContextRoot` replays what was asked before the element was defined.
 */
import type { Context, ContextCallback } from '@lit/context';
import type { Theme } from '../state/config.js';
import type { ChatStatus } from '../state/types.js';
import type { HostElement } from './host.js';

/** What the host's elements read of the widget, and what they may do with it. */
export interface AgentChatContext {
  /** The thread in use; `null` before the first message of a new conversation. */
  readonly threadId: string | null;
  /** `idle`, `connecting`, `streaming`, `reconnecting` or `error`, as the element's `status`. */
  readonly status: ChatStatus;
  /** The language the widget shows (`lang`, else the page's). */
  readonly lang: string;
  /** Its direction: right-to-left languages and packs registered so flip the layout. */
  readonly dir: 'ltr' | 'rtl';
  /** The `theme` setting: `light`, `dark` or `auto` (follows the system). */
  readonly theme: Theme;
  /** Sends a message as the element's `send()` does: before the panel has arrived, the text waits for it. */
  send(text: string): Promise<void>;
  open(): void;
  close(): void;
  newThread(): void;
}

/** What of the context changes; the element reads it after each of its updates. */
export type ContextState = Pick<AgentChatContext, 'threadId' | 'status' | 'lang' | 'dir' | 'theme'>;
type Actions = Omit<AgentChatContext, keyof ContextState>;

/**
 * The context's key, as `createContext('agent-chat')` makes it (the key itself, typed with
 * its value): a Lit element asks with `@consume({context: agentChatContext, subscribe: true})`,
 * any other with a `context-request` event whose `context` is `'agent-chat'`.
 */
export const agentChatContext = 'agent-chat' as Context<'agent-chat', AgentChatContext>;

/** The provider: a controller of the element, answering `context-request` for `agentChatContext`. */
export class ChatContext {
  private __value: AgentChatContext | undefined;
  /** The state the value was made of, as text: its fields are strings or null. */
  private __made = '';
  /** Each subscriber with its disposer: the same one every time (a Lit consumer takes a new one for a new provider). */
  private readonly __subscribers = new Map<ContextCallback<AgentChatContext>, () => void>();

  constructor(
    private readonly __host: HostElement,
    private readonly __read: () => ContextState,
    private readonly __actions: Actions,
  ) {
    __host.addController(this);
    __host.addEventListener('context-request', (event) => {
      // A request for another key is someone else's: it goes on to the page.
      if (event.context !== agentChatContext) return;
      event.stopPropagation();
      const callback = event.callback as ContextCallback<AgentChatContext>;
      const value = this.__sync();
      let dispose = this.__subscribers.get(callback);
      if (event.subscribe && !dispose) this.__subscribers.set(callback, (dispose = () => this.__subscribers.delete(callback)));
      callback(value, dispose);
    });
  }

  hostConnected(): void {
    this.__host.dispatchEvent(
      Object.assign(new Event('context-provider', { bubbles: true, composed: true }), {
        context: agentChatContext,
        contextTarget: this.__host,
      }),
    );
  }

  /** After every update of the element: a value that changed goes to every subscriber. */
  hostUpdated(): void {
    this.__sync();
  }

  /** The value now: a new object when anything in it changed, told to the subscribers. */
  private __sync(): AgentChatContext {
    const state = this.__read();
    const made = JSON.stringify(state);
    if (made !== this.__made) {
      this.__made = made;
      const value = (this.__value = { ...state, ...this.__actions });
      this.__subscribers.forEach((dispose, callback) => callback(value, dispose));
    }
    return this.__value!;
  }
}
