/**
 * Follow-up suggestion chips. Suggestions come from the service, so they are bound as text
 * only; the element decides what a click does (fire `agent-chat-suggestion`, then send).
 */
import { html, nothing, type TemplateResult } from 'lit-html';
import type { Strings } from '../i18n/strings.js';

export interface SuggestionsOptions {
  onSelect: (text: string, event: MouseEvent) => void;
  /** While a reply is running the chips stay visible but inert. */
  disabled?: boolean;
}

export function renderSuggestions(
  suggestions: readonly string[],
  strings: Pick<Strings, 'suggestionsLabel'>,
  opts: SuggestionsOptions,
): TemplateResult | typeof nothing {
  const items = suggestions.filter((s) => typeof s === 'string' && s.trim() !== '');
  if (!items.length) return nothing;
  return html`<div part="suggestions" class="suggestions" role="group" aria-label=${strings.suggestionsLabel}>
    ${items.map(
      (text) =>
        html`<button
          type="button"
          part="suggestion"
          dir="auto"
          class="suggestion"
          ?disabled=${opts.disabled ?? false}
          @click=${(event: MouseEvent) => opts.onSelect(text, event)}
        >${text}</button>`,
    )}
  </div>`;
}
