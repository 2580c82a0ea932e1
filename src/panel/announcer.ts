import { html, nothing } from 'lit-html';
import { plain } from '../chunks.js';
import type { Strings } from '../i18n/index.js';
import type { ShellView } from '../shell/panel-api.js';
import type { ChatMessage } from '../state/messages.js';
import { type PanelContext, type RenderMarks, ViewState } from './context.js';

/**
 * The polite live region, outside the panel (so a reply that lands while the launcher is
 * closed is heard too): what `say` is given, e.g. "Copied", and the last completed reply as
 * plain text, then how many suggested replies came with it. Fixed when the reply
 * completes, so later renders (suggestions hidden while the next turn runs) never change it
 * and re-announce it. What it says renders no message again.
 */
export class Announcer {
  private readonly __live: ViewState<{ text: string }>;

  constructor(host: PanelContext['host'], renders: RenderMarks) {
    this.__live = new ViewState(host, { text: '' }, { renders, keys: () => [] });
  }

  say(text: string): void {
    // The same words again must change the region's text, or they are not read out again.
    this.__live.set({ text: text === this.__live.value.text ? `${text}\u00a0` : text });
  }

  clear(): void {
    this.__live.set({ text: '' });
  }

  /** The reply that just completed, said by name (`agent`); without its chunk (offline) it is not announced: it is in the log. */
  reply(t: Strings, agent: string, reply: ChatMessage | undefined): void {
    if (reply?.role !== 'agent') return;
    plain().then(
      ({ replyAnnouncement }) => this.say(replyAnnouncement(t, agent, reply)),
      () => {},
    );
  }

  render(view: ShellView, lang: string) {
    return html`<div class="sr-only announcer" role="status" aria-live="polite" aria-atomic="true" dir=${view.direction} lang=${lang || nothing}>${this.__live.value.text}</div>`;
  }
}
