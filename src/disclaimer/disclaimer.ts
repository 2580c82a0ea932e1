/**
 * The disclaimer (attribute `disclaimer`), a lazy chunk: the host's markdown (rendered by
 * src/markdown/ like a reply, so sanitised the same way) above the messages with an accept
 * button (parts `disclaimer`, `disclaimer-accept`). Until the reader accepts, nothing is
 * sent: the composer may be typed in, but a send (Enter, a suggestion, an edit or a rerun,
 * the hand-off, the page's `send()`) is refused; the reader's draft stays, focus goes to the
 * accept button and the polite region says why; the page's call resolves having sent
 * nothing and warns in the console. Acceptance is kept per `persist` and per service, as a
 * fingerprint of the text: a changed text asks again. Accepted in another tab of the site
 * (`persist="local"`), it goes here too.
 */
import { html, nothing } from 'lit-html';
import { emit } from '../events.js';
import { markdown } from '../markdown/markdown.js';
import type { PanelContext } from '../panel/context.js';
import { createStorage, fingerprint, scopeOf, type ThreadStorage } from '../state/storage.js';
import { warnOnce } from '../warn.js';

/** The disclaimers of this page, held weakly: one listener tells them what other tabs wrote. */
const disclaimers = new Set<WeakRef<Disclaimer>>();
let listening = false;

function hearOtherTabs(disclaimer: Disclaimer): void {
  if (!listening) {
    listening = true;
    addEventListener('storage', (event) => {
      for (const ref of disclaimers) {
        const live = ref.deref();
        if (live) live.stored(event);
        else disclaimers.delete(ref);
      }
    });
  }
  disclaimers.add(new WeakRef(disclaimer));
}

export class Disclaimer {
  /** The storage of the scope and `persist` mode it was read from (`''`: none). */
  private __scope = '';
  private __storage: ThreadStorage | null = null;
  /** The end of its name in localStorage, where other tabs write too (`''`: not shared). */
  private __shared = '';
  /** The fingerprint of the text accepted in this scope, as stored. */
  private __kept: unknown;
  /** The text last asked about and its fingerprint (a text is hashed once). */
  private __text = '';
  private __print = '';

  constructor(private readonly __ctx: PanelContext) {
    hearOtherTabs(this);
  }

  /**
   * Another tab wrote to localStorage: an acceptance there (or a page clearing its storage)
   * is read again, and the notice goes (or comes back) without a reload.
   */
  stored(event: StorageEvent): void {
    if (!this.__shared || !(event.key?.endsWith(this.__shared) ?? true) || !this.__ctx.host.isConnected) return;
    this.__kept = this.__storage?.read().disclaimer;
    this.__ctx.host.requestUpdate();
  }

  /** Whether sending waits for the reader: a disclaimer whose text they have not accepted here. */
  waits(): boolean {
    const text = this.__ctx.host.disclaimer;
    if (!text) return false;
    if (text !== this.__text) this.__print = fingerprint((this.__text = text));
    this.__open();
    return this.__kept !== this.__print;
  }

  /**
   * Whether a send waits for the reader; if so it is refused, and the reader is shown why
   * (focus on the accept button, the hint said) or the page (`host`) warned.
   */
  holds(host = false): boolean {
    if (!this.waits()) return false;
    if (host) warnOnce('send() sent nothing: the reader has not accepted the disclaimer yet.');
    else {
      this.__ctx.host.renderRoot.querySelector<HTMLElement>('[part="disclaimer-accept"]')?.focus();
      this.__ctx.announce(this.__ctx.text.disclaimerHint);
    }
    return true;
  }

  render() {
    if (!this.waits()) return nothing;
    const { host, labels } = this.__ctx;
    return html`<div part="disclaimer" class="disclaimer" role="note">
      <div class="text" ${markdown(this.__text, { allowHtml: host.allowHtml, labels })}></div>
      <button part="disclaimer-accept" class="text-button disclaimer-accept" type="button" @click=${this.__accept}>${this.__ctx.text.disclaimerAccept}</button>
    </div>`;
  }

  private readonly __accept = async (): Promise<void> => {
    const { host } = this.__ctx;
    const text = this.__text;
    this.__kept = this.__print;
    this.__storage?.write({ disclaimer: this.__print });
    emit(host, 'agent-chat-disclaimer-accept', { text });
    host.requestUpdate();
    // The button goes with the disclaimer: the reader goes on where they write.
    await host.updateComplete;
    this.__ctx.focusInput();
  };

  /** Follows the widget's configuration: another service, credential or `persist` mode reads its own acceptance. */
  private __open(): void {
    const config = this.__ctx.view.config;
    const key = config ? `${config.persist}:${scopeOf(config)}` : '';
    if (key === this.__scope) return;
    this.__scope = key;
    // Beside the conversation's state, not in it: that is checked field by field as it is read.
    const name = config && `${scopeOf(config)}:disclaimer`;
    this.__storage = name ? createStorage(config.persist, name) : null;
    // Matched by its end: the storage's prefix is the state module's own.
    this.__shared = name && config.persist === 'local' ? `:${name}` : '';
    this.__kept = this.__storage?.read().disclaimer;
  }
}
