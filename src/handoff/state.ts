import type { ReactiveController, ReactiveControllerHost } from '@lit/reactive-element';
import type { AgentClient } from '../client/client.js';
import { ApiError } from '../client/errors.js';
import { handOffBody, type HandOffRequest } from '../client/bodies.js';
import type { Channel, ErrorDetail } from '../client/types.js';

/**
 * Hand-off of the conversation to WhatsApp or SMS (docs/protocol.md "Channel hand-off"):
 * the phone number check, the request and the form's state. DOM-free; `form.ts` renders it.
 */

const E164 = /^\+[1-9]\d{6,14}$/;

/** What people type around a number (spaces, dashes, dots, parentheses) removed. */
export function normalizePhone(input: string): string {
  return input.replace(/[\s\-.()\u00a0]/g, '');
}

/** The E.164 form of `input`, or `null` when it is not a full international number. */
export function toE164(input: string): string | null {
  const normalized = normalizePhone(input);
  return E164.test(normalized) ? normalized : null;
}

export interface HandOffResult {
  channel: Channel;
  threadId: string;
  phoneNumber: string;
}

/** The request body exactly as docs/protocol.md "Channel hand-off" fixes it: optional fields only when they have a value. */

export async function startHandOff(
  api: Pick<AgentClient, 'startChannelThread'>,
  channel: Channel,
  request: HandOffRequest,
  signal?: AbortSignal,
): Promise<HandOffResult> {
  const response = await api.startChannelThread(channel, handOffBody(request), { signal });
  return { channel, threadId: response.thread_id, phoneNumber: request.phoneNumber };
}

/**
 * The form's state. `editing` covers a fresh form and one with an invalid number (`invalid`);
 * `sending` disables the submit button; `failed` shows the service's error with the number
 * kept; `done` shows the confirmation.
 */
export type HandOffStatus = 'closed' | 'editing' | 'sending' | 'failed' | 'done';

export interface HandOffFailure {
  message: string;
  details: ErrorDetail[];
}

export class HandOff implements ReactiveController {
  status: HandOffStatus = 'closed';
  channel: Channel = 'whatsapp';
  phone = '';
  /** The number was checked and is not E.164; shown inline, nothing was sent. */
  invalid = false;
  failure: HandOffFailure | null = null;
  result: HandOffResult | null = null;
  private __request: AbortController | null = null;
  private __chosen = false;

  constructor(private readonly __host?: ReactiveControllerHost) {
    __host?.addController(this);
  }

  hostDisconnected(): void {
    this.__request?.abort();
    this.__request = null;
    if (this.status === 'sending') this.status = 'editing';
  }

  get isOpen(): boolean {
    return this.status !== 'closed';
  }

  open(channels: readonly Channel[]): void {
    if (!channels.length) return;
    // The host's first channel, unless the user picked another one earlier.
    if (!this.__chosen || !channels.includes(this.channel)) this.channel = channels[0]!;
    // A finished hand-off starts over; an unfinished one keeps what was typed.
    if (this.status === 'done') this.phone = '';
    this.status = 'editing';
    this.invalid = false;
    this.failure = null;
    this.result = null;
    this.__changed();
  }

  close(): void {
    this.__request?.abort();
    this.__request = null;
    this.status = 'closed';
    this.invalid = false;
    this.failure = null;
    this.__changed();
  }

  setChannel(channel: Channel): void {
    this.channel = channel;
    this.__chosen = true;
    this.__changed();
  }

  setPhone(phone: string): void {
    this.phone = phone;
    // Correcting the number clears the complaint; the check runs again on submit.
    if (this.invalid) this.invalid = false;
    this.__changed();
  }

  /**
   * Validates, then sends. Resolves to the result on success, `null` otherwise (invalid
   * number: no request at all; failure: `failure` holds the service's explanation).
   */
  async submit(
    api: Pick<AgentClient, 'startChannelThread'> | null,
    request: Omit<HandOffRequest, 'phoneNumber'>,
  ): Promise<HandOffResult | null> {
    if (this.status === 'sending') return null;
    const phoneNumber = toE164(this.phone);
    if (!phoneNumber) {
      this.invalid = true;
      this.failure = null;
      this.status = 'editing';
      this.__changed();
      return null;
    }
    if (!api) {
      this.__fail({ message: '', details: [] });
      return null;
    }
    this.invalid = false;
    this.failure = null;
    this.status = 'sending';
    this.__changed();
    const controller = (this.__request = new AbortController());
    try {
      const result = await startHandOff(api, this.channel, { ...request, phoneNumber }, controller.signal);
      if (controller.signal.aborted) return null;
      this.result = result;
      this.status = 'done';
      this.__changed();
      return result;
    } catch (error) {
      if (controller.signal.aborted) return null;
      this.__fail(
        error instanceof ApiError
          ? { message: error.message, details: error.details }
          : { message: error instanceof Error ? error.message : '', details: [] },
      );
      return null;
    } finally {
      if (this.__request === controller) this.__request = null;
    }
  }

  private __fail(failure: HandOffFailure): void {
    this.failure = failure;
    this.status = 'failed';
    this.__changed();
  }

  private __changed(): void {
    this.__host?.requestUpdate();
  }
}
