import type { PropertyValues } from '../shell/host.js';
import type { ChatHost } from '../shell/panel-api.js';
import { hasHtmlSupport, hasLexer, hasTailSupport, loadHtmlSupport, loadTailSupport, needsLexer } from '../markdown/markdown.js';
import { lexer } from '../markdown/chunks.js';
import type { ChatMessage } from '../state/messages.js';
import type { ConversationState } from '../state/store.js';
import { warnOnce } from '../warn.js';
import type { Feature, RenderWaits } from './feature.js';

/** A reply's text that streams or was cut off: the guard for half-typed markdown draws it. */
const unfinished = (m: ChatMessage) =>
  !!m.text && (m.state === 'streaming' || m.state === 'stopped' || m.state === 'interrupted' || !!m.truncated);

/**
 * What the panel's text is drawn with, fetched as the conversation needs it: the markdown
 * lexer (text that is more than prose; a failure is said with Retry), the guard for
 * half-typed markdown (a streaming or cut-off reply) and, with `allow-html`, the sanitiser.
 * A render that would draw text without them waits a little for them, rather than show its
 * syntax for a moment.
 */
export class MarkdownCode {
  private readonly __lexer: Feature<typeof import('../markdown/lex.js')>;
  /** The messages whose text was read for the lexer (`newlyNeedsLexer`). */
  private readonly __read = new WeakSet<ChatMessage>();
  /** allow-html is set but its sanitiser chunk failed to load (warned once). */
  private __htmlUnavailable = false;

  constructor(
    feature: (chunk: typeof lexer) => Feature<typeof import('../markdown/lex.js')>,
    private readonly __host: ChatHost,
    private readonly __waiting: RenderWaits,
  ) {
    this.__lexer = feature(lexer);
  }

  /**
   * The lexer is needed: fetched, or joined; `wait`: renders wait for it a little while it is
   * on its way. Its arrival renders again, and what was drawn as text is drawn with it.
   */
  wantLexer(wait: boolean): void {
    if (!hasLexer()) void this.__lexer.want(wait);
  }

  /** A token arrived: the lexer and the guard draw a streaming reply (it would show raw syntax for a moment without them). */
  streaming(state: ConversationState): void {
    if (!hasTailSupport()) this.__waiting.add(loadTailSupport());
    if (needsLexer(state.messages.at(-1)?.text ?? '')) this.wantLexer(true);
  }

  /** The conversation changed: text that is more than prose waits a little for the lexer; an unfinished reply for the guard. */
  fetchForShown(state: ConversationState, startTurn: boolean): void {
    if (!hasLexer() && (needsLexer(state.welcome) || state.messages.some(this.__newlyNeedsLexer))) this.wantLexer(true);
    if (!startTurn && !hasTailSupport() && state.messages.some(unfinished)) this.__waiting.add(loadTailSupport());
  }

  /** The sanitiser for allow-html: until it is here, nothing renders rather than markup that would change. */
  willUpdate(changed: PropertyValues<ChatHost>): void {
    const { __host: host } = this;
    if (!changed.has('allowHtml') || !host.allowHtml || hasHtmlSupport() || this.__htmlUnavailable) return;
    this.__waiting.add(
      loadHtmlSupport().then((ok) => {
        if (ok) return host.requestUpdate();
        this.__htmlUnavailable = true;
        warnOnce('allow-html could not load its sanitiser; raw HTML is shown as text.');
      }),
    );
  }

  /** A message not read before whose text needs the lexer (messages are never changed in place: each is read once). */
  private readonly __newlyNeedsLexer = (m: ChatMessage): boolean => {
    if (this.__read.has(m)) return false;
    this.__read.add(m);
    return needsLexer(m.text);
  };
}
