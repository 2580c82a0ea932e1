import { html, nothing, svg } from 'lit-html';
import type { Strings } from '../i18n/index.js';
import type { AttachmentError, Attachments } from './state.js';

/** Templates of the composer's image attachment; the state lives in `state.ts`. */

const paperclip = svg`<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M21 11.5l-8.6 8.6a5.5 5.5 0 0 1-7.8-7.8l8.6-8.6a3.7 3.7 0 0 1 5.2 5.2l-8.6 8.6a1.8 1.8 0 0 1-2.6-2.6l7.9-7.9"/></svg>`;
const cross = svg`<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6 6l12 12M18 6L6 18"/></svg>`;

export interface AttachControlOptions {
  disabled: boolean;
  onPick: () => void;
  onChange: (event: Event) => void;
}

/** The attach button and the visually hidden file input it opens. */
export function renderAttachControl(t: Strings, options: AttachControlOptions) {
  return html`<button
      part="attach-button"
      class="attach"
      type="button"
      aria-label=${t.attachImage}
      title=${t.attachImage}
      ?disabled=${options.disabled}
      @click=${options.onPick}
    >
      ${paperclip}
    </button>
    <input class="sr-only file-input" type="file" accept="image/*" tabindex="-1" aria-hidden="true" aria-label=${t.attachImage} @change=${options.onChange} />`;
}

export function attachmentErrorText(t: Strings, error: AttachmentError): string {
  switch (error.kind) {
    case 'type':
      return t.attachmentTypeError(error.name);
    case 'size':
      return t.attachmentSizeError(error.name, Math.round(error.maxBytes / (1024 * 1024)));
    case 'upload':
      return t.uploadFailed(error.message || undefined);
    case 'url':
      return t.uploadInvalidUrl;
  }
}

/** The preview (thumbnail, name, remove button) and any error, above the text field. */
export function renderAttachment(t: Strings, state: Attachments, options: { onRemove: () => void; onDismissError: () => void }) {
  const { file, error } = state;
  return html`${
    file
      ? html`<div part="attachment" class="attachment-preview ${state.status}" aria-busy=${state.uploading ? 'true' : 'false'}>
        ${state.previewUrl ? html`<img src=${state.previewUrl} alt="" />` : nothing}
        <span class="attachment-name">
          <span class="sr-only">${t.attachedImage}: </span>${file.name}
          <span class="attachment-status" role="status">${state.uploading ? t.uploadingImage : ''}</span>
        </span>
        <button
          class="icon-button attachment-remove"
          type="button"
          aria-label=${t.removeAttachment}
          title=${t.removeAttachment}
          @click=${options.onRemove}
        >
          ${cross}
        </button>
      </div>`
      : nothing
  }
  ${
    error
      ? html`<div class="attachment-error" role="alert">
        <span>${attachmentErrorText(t, error)}</span>
        <button class="icon-button" type="button" aria-label=${t.dismiss} title=${t.dismiss} @click=${options.onDismissError}>${cross}</button>
      </div>`
      : nothing
  }`;
}

/** Shown over the composer while an image is dragged over the chat. */
export function renderDropHint(t: Strings) {
  return html`<div class="drop-hint" aria-hidden="true">${paperclip} ${t.dropImage}</div>`;
}
