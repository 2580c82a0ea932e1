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
  private scope = '';
  private storage: ThreadStorage | null = null;
  /** The end of its name in localStorage, where other tabs write too (`''`: not shared). */
  private shared = '';
  /** The fingerprint of the text accepted in this scope, as stored. */
  private kept: unknown;
  /** The text last asked about and its fingerprint (a text is hashed once). */
  private text = '';
  private print = '';

  constructor(private readonly ctx: PanelContext) {
    hearOtherTabs(this);
  }

  /**
   * Another tab wrote to localStorage: an acceptance there (or a page clearing its storage)
   * is read again, and the notice goes (or comes back) without a reload.
   */
  stored(event: StorageEvent): void {
    if (!this.shared || !(event.key?.endsWith(this.shared) ?? true) || !this.ctx.host.isConnected) return;
    this.kept = this.storage?.read().disclaimer;
    this.ctx.host.requestUpdate();
  }

  /** Whether sending waits for the reader: a disclaimer whose text they have not accepted here. */
  waits(): boolean {
    const text = this.ctx.host.disclaimer;
    if (!text) return false;
    if (text !== this.text) this.print = fingerprint((this.text = text));
    this.open();
    return this.kept !== this.print;
  }

  /**
   * Whether a send waits for the reader; if so it is refused, and the reader is shown why
   * (focus on the accept button, the hint said) or the page (`host`) warned.
   */
  holds(host = false): boolean {
    if (!this.waits()) return false;
    if (host) warnOnce('send() sent nothing: the reader has not accepted the disclaimer yet.');
    else {
      this.ctx.host.renderRoot.querySelector<HTMLElement>('[part="disclaimer-accept"]')?.focus();
      this.ctx.announce(this.ctx.text.disclaimerHint);
    }
    return true;
  }

  render() {
    if (!this.waits()) return nothing;
    const { host, labels } = this.ctx;
    return html`<div part="disclaimer" class="disclaimer" role="note">
      <div class="text" ${markdown(this.text, { allowHtml: host.allowHtml, labels })}></div>
      <button part="disclaimer-accept" class="text-button disclaimer-accept" type="button" @click=${this.accept}>${this.ctx.text.disclaimerAccept}</button>
    </div>`;
  }

  private readonly accept = async (): Promise<void> => {
    const { host } = this.ctx;
    const text = this.text;
    this.kept = this.print;
    this.storage?.write({ disclaimer: this.print });
    emit(host, 'agent-chat-disclaimer-accept', { text });
    host.requestUpdate();
    // The button goes with the disclaimer: the reader goes on where they write.
    await host.updateComplete;
    this.ctx.focusInput();
  };

  /** Follows the widget's configuration: another service, credential or `persist` mode reads its own acceptance. */
  private open(): void {
    const config = this.ctx.view.config;
    const key = config ? `${config.persist}:${scopeOf(config)}` : '';
    if (key === this.scope) return;
    this.scope = key;
    // Beside the conversation's state, not in it: that is checked field by field as it is read.
    const name = config && `${scopeOf(config)}:disclaimer`;
    this.storage = name ? createStorage(config.persist, name) : null;
    // Matched by its end: the storage's prefix is the state module's own.
    this.shared = name && config.persist === 'local' ? `:${name}` : '';
    this.kept = this.storage?.read().disclaimer;
  }
}
