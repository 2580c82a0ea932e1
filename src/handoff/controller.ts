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
  private form: HandOff | null = null;
  private offered: Channel[] = [];

  constructor(private readonly ctx: PanelContext) {}

  /** The channels offered by `channels` (checked text), in the host's order. */
  setChannels(text: string): void {
    const offered = text ? parseChannels(text) : [];
    if (offered.join() === this.offered.join()) return;
    this.offered = offered;
    if (!offered.length && this.form?.isOpen) this.close(false);
  }

  renderButton() {
    if (!this.offered.length) return nothing;
    return renderChannelButton(this.ctx.text, this.offered, {
      expanded: !!this.form?.isOpen,
      onClick: () => (this.form?.isOpen ? this.close() : void this.open()),
    });
  }

  renderForm() {
    const form = this.form;
    if (!form || !this.offered.length) return nothing;
    return renderChannelForm(this.ctx.text, form, this.offered, {
      onChannel: (channel) => form.setChannel(channel),
      onPhone: (value) => form.setPhone(value),
      onSubmit: (event) => void this.submit(event),
      onCancel: () => this.close(),
      onKeyDown: this.onKeyDown,
    });
  }

  private async open(): Promise<void> {
    const { host } = this.ctx;
    this.form ??= new HandOff(host);
    this.form.open(this.offered);
    await host.updateComplete;
    // The first field: the checked channel when there is a choice, else the phone number.
    host.renderRoot.querySelector<HTMLInputElement>('#channel-form input:checked, #channel-phone')?.focus();
  }

  private close(focusButton = true): void {
    const { host } = this.ctx;
    // The form's state renders the widget as it changes (HandOff, a ReactiveController).
    this.form?.close();
    if (focusButton) host.renderRoot.querySelector<HTMLElement>('[part="channel-button"]')?.focus();
  }

  private readonly onKeyDown = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape') return;
    // Escape closes the form only, not the launcher panel around it.
    event.stopPropagation();
    this.close();
  };

  private async submit(event: Event): Promise<void> {
    event.preventDefault();
    const { host, chat } = this.ctx;
    // The hand-off continues the conversation elsewhere: not before the disclaimer is accepted.
    if (!this.form || this.ctx.sendHeld()) return;
    const result = await this.form.submit(chat.client, {
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
      if (this.form?.invalid) host.renderRoot.querySelector<HTMLElement>('#channel-phone')?.focus();
      host.renderRoot.querySelector('#channel-invalid, .channel-form .channel-error')?.scrollIntoView({ block: 'nearest' });
    }
  }
}
