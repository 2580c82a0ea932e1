import { type Strings, englishVersion, resolveStrings } from '../i18n/index.js';
import { type MarkdownLabels, markdownLabels } from '../markdown/markdown.js';
import type { ShellView } from '../shell/panel-api.js';

/**
 * Every UI text: the language's table with the host's `strings` on top, and the labels the
 * markdown renderer writes, resolved again when either changes or a feature that arrives
 * brings its English (src/i18n/index.ts `addEnglish`).
 */
export class Texts {
  private __resolved: { shell: number; english: number; text: Strings; labels: MarkdownLabels } | null = null;

  constructor(private readonly __view: ShellView) {}

  get current(): { text: Strings; labels: MarkdownLabels } {
    const { __view: view } = this;
    const english = englishVersion();
    if (this.__resolved?.shell !== view.stringsVersion || this.__resolved.english !== english) {
      const text = resolveStrings(view.locale, view.overrides);
      this.__resolved = { shell: view.stringsVersion, english, text, labels: markdownLabels(text) };
    }
    return this.__resolved;
  }
}
