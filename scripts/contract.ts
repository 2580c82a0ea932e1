/**
 * The public API this repository promises hosts: every attribute, property, method, event,
 * CSS part and theme token, as a list the checks hold the element and the README to. Names
 * may be added, never renamed or removed without a deprecation path (CHANGELOG.md).
 */

/** The attribute table, with the property each attribute reflects to. */
export const ATTRIBUTES: Record<string, string> = {
  'base-url': 'baseUrl',
  'publishable-key': 'publishableKey',
  'access-token': 'accessToken',
  'user-id': 'userId',
  // `threadId` is the read-only thread in use; the attribute feeds `threadIdAttribute`.
  'thread-id': 'threadIdAttribute',
  transport: 'transport',
  'agent-variables': 'agentVariables',
  mode: 'mode',
  // `open()` is a method, so the `open` attribute reflects to `isOpen`.
  open: 'isOpen',
  persist: 'persist',
  lang: 'lang',
  theme: 'theme',
  heading: 'heading',
  placeholder: 'placeholder',
  channels: 'channels',
  'agent-display-name': 'agentDisplayName',
  feedback: 'feedback',
  'read-aloud': 'readAloud',
  disclaimer: 'disclaimer',
  voice: 'voice',
  'link-target': 'linkTarget',
  preview: 'preview',
  debug: 'debug',
};

/** Properties without an attribute, and the read-only ones. */
export const PROPERTIES = [
  'tokenProvider',
  'agentVariables',
  'suggestionContext',
  'uploadImage',
  'cardRenderer',
  'cardActions',
  'strings',
  'threadId',
  'messages',
  'status',
];

export const METHODS = ['send', 'newThread', 'open', 'close', 'toggle', 'focusInput', 'exportTranscript'];

export const EVENTS = [
  'agent-chat-ready',
  'agent-chat-send',
  'agent-chat-message',
  'agent-chat-thread',
  'agent-chat-error',
  'agent-chat-suggestion',
  'agent-chat-card-click',
  'agent-chat-open',
  'agent-chat-close',
  'agent-chat-channel',
  'agent-chat-feedback',
  'agent-chat-link-click',
  'agent-chat-card-action',
  'agent-chat-disclaimer-accept',
  'agent-chat-preview-rename',
];

export const PARTS = [
  'panel',
  'header',
  'heading',
  'close-button',
  'launcher',
  'log',
  'welcome',
  'message',
  'message-user',
  'message-agent',
  'bubble',
  'text',
  'meta',
  'cards',
  'card',
  'card-recommended',
  'card-image',
  'card-title',
  'card-price',
  'card-fields',
  'card-variants',
  'card-prev',
  'card-next',
  'card-variant',
  'card-action',
  'suggestions',
  'suggestion',
  'composer',
  'input',
  'send-button',
  'stop-button',
  'mic-button',
  'attach-button',
  'attachment',
  'typing',
  'error',
  'retry-button',
  'copy-button',
  'read-aloud-button',
  'feedback',
  'feedback-up',
  'feedback-down',
  'regenerate-button',
  'edit-button',
  'branch-nav',
  'channel-button',
  'channel-form',
  'export-button',
  'disclaimer',
  'disclaimer-accept',
  'history-button',
  'history',
  'jump-to-latest',
  'code-block',
  'code-language',
  'trace-button',
  'trace',
  'version-button',
  'version-menu',
  'version-label',
  'thread-title',
  'rename-button',
  'rename-input',
  'preview-note',
];

/** Slots a host fills with its own content. */
export const SLOTS = ['header', 'footer', 'empty', 'launcher-icon'];

/** "accent, background, surface, text, muted text, radius, font, spacing, max width, launcher size". */
export const CSS_PROPERTIES = [
  '--agent-chat-accent',
  '--agent-chat-background',
  '--agent-chat-surface',
  '--agent-chat-text',
  '--agent-chat-muted-text',
  '--agent-chat-radius',
  '--agent-chat-font',
  '--agent-chat-spacing',
  '--agent-chat-max-width',
  '--agent-chat-launcher-size',
];

/** Collects failures per topic and prints them; `finish()` sets the exit code. */
export class Report {
  private readonly failures: string[] = [];
  private checks = 0;

  constructor(private readonly title: string) {}

  expect(ok: boolean, failure: string): void {
    this.checks++;
    if (!ok) this.failures.push(failure);
  }

  finish(): void {
    if (this.failures.length) {
      console.error(`${this.title}: ${this.failures.length} of ${this.checks} checks failed`);
      for (const f of this.failures) console.error(`  - ${f}`);
      process.exitCode = 1;
    } else {
      console.log(`${this.title}: all ${this.checks} checks passed`);
    }
  }
}
