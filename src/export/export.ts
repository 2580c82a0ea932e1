/**
 * Save the conversation, a lazy chunk: `exportTranscript(format)` returns the shown branch
 * as Markdown or JSON (transcript.ts), and the header's button (part `export-button`,
 * once there is a message) downloads the Markdown as a file named after the thread's title,
 * else its date. feature.ts fetches it with the first message, or with the method's first call.
 * The Markdown lexes replies as the view does: it waits for the lexer (and, with
 * `allow-html`, the sanitiser), which the view has mostly fetched already.
 */
import { html, nothing, svg } from 'lit-html';
import { icon } from '../icons/icons.js';
import { loadRewrite } from '../markdown/rewrite.js';
import type { PanelContext } from '../panel/context.js';
import { oneOf, reported } from '../state/config.js';
import { titleFrom } from '../state/history.js';
import type { ConversationStore } from '../state/store.js';
import { fileName, transcriptJson, transcriptMarkdown } from './transcript.js';

const saveIcon = icon(svg`<path d="M12 4v11M7 10l5 5 5-5M5 20h14"/>`);

/** How long a download's file stays in memory: the browser has taken it long before. */
const KEEP_MS = 30_000;

/** The store's next transition. */
const next = (store: Pick<ConversationStore, 'subscribe'>) =>
  new Promise<void>((resolve) => {
    const stop = store.subscribe(() => {
      stop();
      resolve();
    });
  });

export class Exporter {
  constructor(private readonly __ctx: PanelContext) {}

  renderButton() {
    if (!this.__ctx.chat.state.messages.length) return nothing;
    const label = this.__ctx.text.exportConversation;
    return html`<button part="export-button" class="icon-button" type="button" title=${label} aria-label=${label} @click=${this.__save}>
      ${saveIcon}
    </button>`;
  }

  /**
   * The shown branch as `format` (`markdown` unless `json`; anything else warns once). A
   * conversation that is loading (a launcher's, never opened: the call loads it) is waited
   * for; one that could not load is exported as it shows, empty.
   */
  async transcript(format: unknown): Promise<string> {
    const json =
      reported((problems) => oneOf('the format of exportTranscript()', format, ['markdown', 'json'] as const, problems)) === 'json';
    const { chat } = this.__ctx;
    chat.activate();
    while (!chat.state.ready && chat.status === 'connecting') await next(chat.store);
    return json ? transcriptJson(chat.messages, chat.currentUserId) : this.__markdown();
  }

  /** The thread's title in this browser's history (its first question), else the first question shown. */
  private __title(): string {
    const { chat } = this.__ctx;
    const kept = chat.history.find((entry) => entry.id === chat.threadId)?.title;
    return kept || titleFrom(chat.messages.find((m) => m.role === 'user')?.text ?? '');
  }

  private async __markdown(): Promise<string> {
    const { __ctx: ctx } = this;
    await loadRewrite(ctx.host.allowHtml);
    const t = ctx.text;
    const heading = ctx.host.heading || t.heading;
    return transcriptMarkdown(ctx.chat.messages, {
      title: this.__title() || heading,
      user: t.userName,
      agent: ctx.host.agentDisplayName || t.agentName,
      truncated: t.replyTruncated,
      image: t.attachedImage,
      locale: ctx.view.locale,
      allowHtml: ctx.host.allowHtml,
    });
  }

  /** The header's button: the Markdown as a file, which the browser downloads. */
  private readonly __save = async (): Promise<void> => {
    const text = await this.__markdown();
    const first = this.__ctx.chat.messages[0]?.createdAt;
    const url = URL.createObjectURL(new Blob([text], { type: 'text/markdown;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName(this.__title(), first && !Number.isNaN(Date.parse(first)) ? new Date(first) : new Date());
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), KEEP_MS);
  };
}
