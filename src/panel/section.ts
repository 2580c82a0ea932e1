import { html, nothing } from 'lit-html';
import type { Strings } from '../i18n/index.js';
import { renderConfigNotice, renderNotice } from '../notices/notice.js';
import { noticeText } from '../notices/text.js';
import type { ChatHost, ShellView } from '../shell/panel-api.js';
import type { Notice } from '../state/notice.js';
import { renderHeader } from './header.js';

/** What the panel's section is drawn from: the parts, already rendered, and the few actions its frame takes. */
export interface SectionParts {
  readonly host: ChatHost;
  readonly view: ShellView;
  readonly text: Strings;
  /** A launcher's panel that is full screen: a modal dialog. */
  readonly modal: boolean;
  /** The features' parts in the header and above the log (src/panel/spec.ts `Places`). */
  readonly title: unknown;
  readonly buttons: unknown;
  readonly aboveLog: unknown;
  readonly log: unknown;
  readonly composer: unknown;
  readonly announcer: unknown;
  readonly historyOpen: boolean;
  onHistory(): void;
  onNewThread(): void;
  onKeyDown(event: KeyboardEvent): void;
  /** The conversation's notice, else "Part of the chat could not load" while a chunk failed. */
  readonly notice: Notice | null;
  retry(): void;
  dismissNotice(): void;
  readonly loadFailed: { retry(): void; dismiss(): void } | null;
}

/**
 * The panel's section: header, the features above the log, the settings' problems, the log,
 * one notice, the composer, the footer slot; and the live region beside it.
 */
export function renderSection(p: SectionParts) {
  const { host, view, text: t, notice, loadFailed } = p;
  const launcher = view.launcher;
  const heading = host.heading || t.heading;
  return html`<section
      part="panel"
      class="panel"
      id="panel"
      role=${launcher ? 'dialog' : 'region'}
      aria-modal=${launcher && p.modal ? 'true' : nothing}
      aria-label=${heading}
      dir=${view.direction}
      lang=${host.lang || nothing}
      ?hidden=${launcher && !host.isOpen}
      @keydown=${p.onKeyDown}
    >
      ${renderHeader(t, {
        heading,
        title: p.title,
        launcher,
        historyOpen: p.historyOpen,
        buttons: p.buttons,
        onHistory: p.onHistory,
        onNewThread: p.onNewThread,
        onClose: view.close,
      })}
      ${p.aboveLog}
      ${view.configProblems.length ? renderConfigNotice(t, view.configProblems, { developer: view.developer, fatal: !view.config }) : nothing}
      ${p.log}
      ${
        notice
          ? renderNotice(t, {
              title: noticeText(t, notice),
              // A setup the service refused: the developer reads its own words (which setting fixes it).
              body: view.developer && notice.kind === 'config' && notice.error ? [notice.error.message, ...notice.details] : notice.details,
              onRetry: notice.retry ? p.retry : undefined,
              onDismiss: p.dismissNotice,
            })
          : loadFailed
            ? renderNotice(t, { title: t.loadFailed, onRetry: loadFailed.retry, onDismiss: loadFailed.dismiss })
            : nothing
      }
      ${p.composer}
      <slot name="footer"></slot>
    </section>
    ${p.announcer}`;
}
