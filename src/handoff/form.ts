import { html, nothing } from 'lit-html';
import { live } from '../live.js';
import type { Channel } from '../client/types.js';
import type { Strings } from '../i18n/index.js';
import { CHANNEL_NAMES } from './channels.js';
import type { HandOff } from './state.js';
import { channelTitle } from './button.js';

/** Templates of the WhatsApp/SMS hand-off form; its state lives in `state.ts`. */

export interface ChannelFormOptions {
  onChannel: (channel: Channel) => void;
  onPhone: (value: string) => void;
  onSubmit: (event: Event) => void;
  onCancel: () => void;
  onKeyDown: (event: KeyboardEvent) => void;
}

/** The form (or, after success, the confirmation) inside the panel, under the header. */
export function renderChannelForm(t: Strings, state: HandOff, channels: readonly Channel[], options: ChannelFormOptions) {
  if (state.status === 'closed') return nothing;
  const name = CHANNEL_NAMES[state.channel];
  if (state.status === 'done') {
    return html`<div part="channel-form" id="channel-form" class="channel-form done" data-refocus="button" @keydown=${options.onKeyDown}>
      <p role="status" class="channel-done">${t.channelDone(name)}</p>
      <div class="channel-actions">
        <button class="text-button" type="button" @click=${options.onCancel}>${t.channelBack}</button>
      </div>
    </div>`;
  }
  const sending = state.status === 'sending';
  const failure = state.failure;
  const describedBy = ['channel-hint', state.invalid ? 'channel-invalid' : ''].filter(Boolean).join(' ');
  return html`<form
    part="channel-form"
    id="channel-form"
    class="channel-form"
    data-refocus="#channel-phone"
    aria-labelledby="channel-title"
    novalidate
    @submit=${options.onSubmit}
    @keydown=${options.onKeyDown}
  >
    <h3 id="channel-title" class="channel-title">${channelTitle(t, channels)}</h3>
    ${
      channels.length > 1
        ? html`<fieldset class="channel-choice">
          <legend>${t.channelChoice}</legend>
          ${channels.map(
            (channel) => html`<label>
              <input
                type="radio"
                name="channel"
                value=${channel}
                .checked=${live(channel === state.channel)}
                ?disabled=${sending}
                @change=${() => options.onChannel(channel)}
              />
              ${CHANNEL_NAMES[channel]}
            </label>`,
          )}
        </fieldset>`
        : nothing
    }
    <label class="channel-label" for="channel-phone">${t.channelPhoneLabel}</label>
    <input
      id="channel-phone"
      class="channel-phone"
      type="tel"
      autocomplete="tel"
      inputmode="tel"
      dir="ltr"
      .value=${live(state.phone)}
      aria-invalid=${state.invalid ? 'true' : 'false'}
      aria-describedby=${describedBy}
      ?readonly=${sending}
      @input=${(event: Event) => options.onPhone((event.target as HTMLInputElement).value)}
    />
    <p id="channel-hint" class="channel-hint">${t.channelPhoneHint}</p>
    ${state.invalid ? html`<p id="channel-invalid" class="channel-error">${t.channelPhoneInvalid}</p>` : nothing}
    <p class="channel-consent">${t.channelConsent(name)}</p>
    ${
      failure
        ? html`<div class="channel-error" role="alert">
          <strong>${t.channelFailed}</strong>
          ${
            failure.details.length
              ? html`<ul>
                ${failure.details.map((d) => html`<li>${d.field ? `${d.field}: ` : ''}${d.message}</li>`)}
              </ul>`
              : failure.message
                ? html`<p>${failure.message}</p>`
                : nothing
          }
        </div>`
        : nothing
    }
    <div class="channel-actions">
      <button class="text-button" type="button" @click=${options.onCancel}>${t.channelCancel}</button>
      <button class="text-button primary" type="submit" ?disabled=${sending} aria-busy=${sending ? 'true' : 'false'}>
        ${sending ? t.channelSending : t.channelSubmit}
      </button>
    </div>
  </form>`;
}
