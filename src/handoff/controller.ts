import { nothing } from 'lit-html';
import type { Channel } from '../client/types.js';
import { emit } from '../events.js';
import type { PanelContext } from '../panel/context.js';
import { renderChannelButton } from './button.js';
import { parseChannels } from './channels.js';
import { renderChannelForm } from './form.js';
import { HandOff } from './state.js';

/**
 * The hand-off in the panel, once this chunk is here (feature.ts loads it when `channels` is
 * set): the channels offered, the header button, and the form, made when first opened.
 */
export class HandOffControl {
  /** The form's state, made when the form is first opened. */
  private __form: HandOff | null = null;
  private __offered: Channel[] = [];

  constructor(private readonly __ctx: PanelContext) {}

  /** The channels offered by `channels` (checked text), in the host's order. */
  setChannels(text: string): void {
    const offered = text ? parseChannels(text) : [];
    if (offered.join() === this.__offered.join()) return;
    this.__offered = offered;
    if (!offered.length && this.__form?.isOpen) this.__close(false);
  }

  renderButton() {
    if (!this.__offered.length) return nothing;
    return renderChannelButton(this.__ctx.text, this.__offered, {
      expanded: !!this.__form?.isOpen,
      onClick: () => (this.__form?.isOpen ? this.__close() : void this.__open()),
    });
  }

  renderForm() {
    const form = this.__form;
    if (!form || !this.__offered.length) return nothing;
    return renderChannelForm(this.__ctx.text, form, this.__offered, {
      onChannel: (channel) => form.setChannel(channel),
      onPhone: (value) => form.setPhone(value),
      onSubmit: (event) => void this.__submit(event),
      onCancel: () => this.__close(),
      onKeyDown: this.__onKeyDown,
    });
  }

  private async __open(): Promise<void> {
    const { host } = this.__ctx;
    this.__form ??= new HandOff(host);
    this.__form.open(this.__offered);
    await host.updateComplete;
    // The first field: the checked channel when there is a choice, else the phone number.
    host.renderRoot.querySelector<HTMLInputElement>('#channel-form input:checked, #channel-phone')?.focus();
  }

  private __close(focusButton = true): void {
    const { host } = this.__ctx;
    // The form's state renders the widget as it changes (HandOff, a ReactiveController).
    this.__form?.close();
    if (focusButton) host.renderRoot.querySelector<HTMLElement>('[part="channel-button"]')?.focus();
  }

  private readonly __onKeyDown = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape') return;
    // Escape closes the form only, not the launcher panel around it.
    event.stopPropagation();
    this.__close();
  };

  private async __submit(event: Event): Promise<void> {
    event.preventDefault();
    const { host, chat } = this.__ctx;
    // The hand-off continues the conversation elsewhere: not before the disclaimer is accepted.
    if (!this.__form || this.__ctx.sendHeld()) return;
    const result = await this.__form.submit(chat.client, {
      userId: chat.currentUserId,
      agentDisplayName: host.agentDisplayName,
      threadId: chat.threadId,
    });
    await host.updateComplete;
    if (result) {
      // The conversation goes on in the thread the service bound to the channel.
      // Not under a running reply, which would be stopped: that thread stays in use.
      if (result.threadId !== chat.threadId && !chat.busy) chat.switchThread(result.threadId, 'switched');
      emit(host, 'agent-chat-channel', result);
      host.renderRoot.querySelector<HTMLElement>('.channel-form.done button')?.focus();
    } else {
      // The number field again, and what is wrong in sight: a short panel scrolls the form.
      if (this.__form?.invalid) host.renderRoot.querySelector<HTMLElement>('#channel-phone')?.focus();
      host.renderRoot.querySelector('#channel-invalid, .channel-form .channel-error')?.scrollIntoView({ block: 'nearest' });
    }
  }
}
