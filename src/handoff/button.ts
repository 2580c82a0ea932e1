import { html, svg } from 'lit-html';
import type { Channel } from '../client/types.js';
import type { Strings } from '../i18n/index.js';
import { CHANNEL_NAMES } from './channels.js';

/** The header button that opens the WhatsApp/SMS hand-off form. */

const phone = svg`<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><rect x="6" y="2.5" width="12" height="19" rx="2.5"/><path d="M11 18h2"/></svg>`;

/** "Continue on WhatsApp" for one channel, the generic "Continue on your phone" for several. */
export function channelTitle(t: Strings, channels: readonly Channel[]): string {
  return channels.length === 1 ? t.channelButton(CHANNEL_NAMES[channels[0]!]) : t.channelGeneric;
}

export function renderChannelButton(t: Strings, channels: readonly Channel[], options: { expanded: boolean; onClick: () => void }) {
  const label = channelTitle(t, channels);
  return html`<button
    part="channel-button"
    class="icon-button channel-button"
    type="button"
    aria-label=${label}
    title=${label}
    aria-expanded=${options.expanded ? 'true' : 'false'}
    aria-controls="channel-form"
    @click=${options.onClick}
  >
    ${phone}
  </button>`;
}
