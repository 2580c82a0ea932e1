import { expect } from '@open-wc/testing';
import type { ChannelDetail } from '../../src/events.js';
import { handOffBody } from '../../src/client/bodies.js';
import { parseChannels, toE164 } from '../../src/handoff/index.js';
import { createKey, keyStats } from '../support/server.js';
import { setViewport } from '@web/test-runner-commands';
import { $, $$, collect, mount, openLauncher, sendByUser, unmountAll, until } from '../support/element.js';
import type { AgentChat } from '../../src/agent-chat.js';

const button = (el: AgentChat) => $(el, '[part="channel-button"]') as HTMLButtonElement | null;
const form = (el: AgentChat) => $(el, '[part="channel-form"]');
const phone = (el: AgentChat) => $(el, '#channel-phone') as HTMLInputElement;
const channelRequests = async (key: string) => (await keyStats(key)).requests.filter((r) => r.path.includes('/channels/'));

async function openForm(el: AgentChat): Promise<void> {
  button(el)!.click();
  await until(() => form(el) && el.shadowRoot!.activeElement?.closest('[part="channel-form"]'), 'focus in the form');
}

async function submitNumber(el: AgentChat, value: string): Promise<void> {
  const field = phone(el);
  field.value = value;
  field.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  await el.updateComplete;
  ($(el, '[part="channel-form"] button[type="submit"]') as HTMLButtonElement).click();
  await el.updateComplete;
}

describe('<agent-chat> WhatsApp/SMS hand-off', () => {
  afterEach(unmountAll);

  it('offers the hand-off only with the channels attribute, ignoring unknown names', async () => {
    const key = await createKey({ paceMs: 0 });
    const none = await mount({ 'publishable-key': key });
    expect(button(none)).to.be.null;

    const one = await mount({ 'publishable-key': key, channels: ' WhatsApp ' });
    expect(button(one)!.getAttribute('aria-label')).to.equal('Continue on WhatsApp');
    expect(button(one)!.getAttribute('aria-expanded')).to.equal('false');

    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (message: string) => void warnings.push(message);
    let both: AgentChat;
    try {
      both = await mount({ 'publishable-key': key, channels: 'sms, fax,whatsapp' });
    } finally {
      console.warn = warn;
    }
    expect(warnings.some((w) => w.includes('"fax"'))).to.be.true;
    expect(button(both)!.getAttribute('aria-label')).to.equal('Continue on your phone');
    await openForm(both);
    const radios = $$(both, '[part="channel-form"] input[type="radio"]') as HTMLInputElement[];
    expect(radios.map((r) => r.value)).to.deep.equal(['sms', 'whatsapp']);
    expect(both.shadowRoot!.activeElement).to.equal(radios[0]);
    expect(button(both)!.getAttribute('aria-expanded')).to.equal('true');
  });

  it('opens a form with a phone field for one channel and moves focus into it', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ 'publishable-key': key, channels: 'sms' });
    await openForm(el);
    const field = phone(el);
    expect(el.shadowRoot!.activeElement).to.equal(field);
    expect(field.type).to.equal('tel');
    expect(field.getAttribute('autocomplete')).to.equal('tel');
    expect(field.getAttribute('inputmode')).to.equal('tel');
    expect($(el, `label[for="channel-phone"]`)!.textContent).to.contain('Phone number');
    expect(form(el)!.textContent).to.contain('agree to receive messages').and.contain('SMS');
    expect($$(el, '[part="channel-form"] input[type="radio"]')).to.have.length(0);
  });

  it('rejects numbers that are not E.164 inline, before any request', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ 'publishable-key': key, channels: 'whatsapp' });
    await openForm(el);
    for (const bad of ['', '0151 1234567', '+0 151 1234567', '+49 12', '+49 151 1234 5678 9012', '+49 151-abc-4567']) {
      await submitNumber(el, bad);
      expect(phone(el).getAttribute('aria-invalid'), bad).to.equal('true');
      const describedBy = phone(el).getAttribute('aria-describedby')!.split(' ');
      expect(describedBy).to.include('channel-invalid');
      expect($(el, '#channel-invalid')!.textContent).to.contain('country code');
      expect(el.shadowRoot!.activeElement).to.equal(phone(el));
    }
    expect(await channelRequests(key)).to.have.length(0);
    // Correcting the number clears the complaint.
    phone(el).value = '+4';
    phone(el).dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    await el.updateComplete;
    expect(phone(el).getAttribute('aria-invalid')).to.equal('false');
    expect($(el, '#channel-invalid')).to.be.null;
  });

  it('sends exactly user_id, agent_display_name, the normalised number and the current thread', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ 'publishable-key': key, channels: 'whatsapp', 'user-id': 'hiker-7', 'agent-display-name': 'Trail Bot' });
    await sendByUser(el, 'hello');
    const threadId = el.threadId!;
    expect(threadId).to.match(/^[0-9a-f]{24}$/);
    const seen = collect<ChannelDetail>(el, 'agent-chat-channel');
    await openForm(el);
    await submitNumber(el, ' +49 (151) 123-45.678 ');
    await until(() => seen.length === 1, 'agent-chat-channel');
    const [request] = await channelRequests(key);
    expect(request!.method).to.equal('POST');
    expect(request!.path).to.equal('/messaging/v1/channels/whatsapp/threads');
    expect(request!.body).to.deep.equal({
      user_id: 'hiker-7',
      phone_number: '+4915112345678',
      agent_display_name: 'Trail Bot',
      thread_id: threadId,
    });
    expect(seen[0]).to.deep.equal({ channel: 'whatsapp', threadId, phoneNumber: '+4915112345678' });
  });

  it('leaves out thread_id and agent_display_name when there are none; confirms and reports the new thread', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ 'publishable-key': key, channels: 'whatsapp,sms', 'user-id': 'hiker-8' });
    expect(el.threadId).to.be.null;
    const seen = collect<ChannelDetail>(el, 'agent-chat-channel');
    await openForm(el);
    ($(el, '[part="channel-form"] input[value="sms"]') as HTMLInputElement).click();
    await submitNumber(el, '+1 415 555 0123');
    await until(() => seen.length === 1);
    const [request] = await channelRequests(key);
    expect(request!.path).to.equal('/messaging/v1/channels/sms/threads');
    expect(request!.body).to.deep.equal({ user_id: 'hiker-8', phone_number: '+14155550123' });
    expect(seen[0]!.channel).to.equal('sms');
    expect(seen[0]!.threadId).to.match(/^[0-9a-f]{24}$/);
    expect(seen[0]!.phoneNumber).to.equal('+14155550123');
    await el.updateComplete;
    const done = $(el, '[part="channel-form"] [role="status"]')!;
    expect(done.textContent).to.contain('The conversation continues on SMS.');
    expect(el.shadowRoot!.activeElement).to.equal($(el, '[part="channel-form"] button'));
  });

  it('shows a server failure in the form and keeps the number', async () => {
    const key = await createKey({ paceMs: 0, fail: [{ status: 503, path: '/channels/' }] });
    const el = await mount({ 'publishable-key': key, channels: 'whatsapp' });
    const seen = collect(el, 'agent-chat-channel');
    await openForm(el);
    await submitNumber(el, '+4915112345678');
    await until(() => $(el, '[part="channel-form"] [role="alert"]'), 'failure shown');
    const alert = $(el, '[part="channel-form"] [role="alert"]')!;
    expect(alert.textContent).to.contain('could not be moved').and.contain('Injected failure (503)');
    expect(phone(el).value).to.equal('+4915112345678');
    expect(seen).to.have.length(0);
    expect(await channelRequests(key)).to.have.length(1);
  });

  it("lists the service's validation details", async () => {
    const key = await createKey({ paceMs: 0 });
    // 81 characters: the service allows 80 for agent_display_name and answers 422 with details.
    const el = await mount({ 'publishable-key': key, channels: 'whatsapp', 'agent-display-name': 'x'.repeat(81) });
    await openForm(el);
    await submitNumber(el, '+4915112345678');
    await until(() => $(el, '[part="channel-form"] [role="alert"] li'), 'details shown');
    expect($(el, '[part="channel-form"] [role="alert"] li')!.textContent).to.contain('agent_display_name');
    expect(phone(el).value).to.equal('+4915112345678');
  });

  it('closes on Escape and returns focus to the button, without closing the launcher', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ 'publishable-key': key, channels: 'sms', mode: 'launcher', open: '' });
    await openForm(el);
    phone(el).dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await el.updateComplete;
    expect(form(el)).to.be.null;
    expect(el.isOpen).to.be.true;
    expect(el.shadowRoot!.activeElement).to.equal(button(el));
    expect(button(el)!.getAttribute('aria-expanded')).to.equal('false');
  });

  it('cancel closes the form; reopening keeps what was typed', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ 'publishable-key': key, channels: 'sms' });
    await openForm(el);
    phone(el).value = '+1 415';
    phone(el).dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    const cancel = $$(el, '[part="channel-form"] button').find((b) => b.textContent!.trim() === 'Cancel')!;
    cancel.click();
    await el.updateComplete;
    expect(form(el)).to.be.null;
    expect(el.shadowRoot!.activeElement).to.equal(button(el));
    await openForm(el);
    expect(phone(el).value).to.equal('+1 415');
  });

  /** The form's Cancel and Continue, and its error, are on screen without scrolling anything. */
  function assertActionsShown(el: AgentChat): void {
    const panel = $(el, '[part="panel"]')!.getBoundingClientRect();
    const box = form(el)!.getBoundingClientRect();
    const shown = [...$$(el, '[part="channel-form"] .channel-actions button'), ...$$(el, '#channel-invalid')];
    expect(shown.length).to.be.at.least(2);
    for (const node of shown) {
      const rect = node.getBoundingClientRect();
      const where = `${node.textContent!.trim()}: ${rect.top}-${rect.bottom} in form ${box.top}-${box.bottom}, panel ${panel.top}-${panel.bottom}, viewport ${innerHeight}`;
      expect(rect.top, where).to.be.at.least(Math.max(box.top, panel.top, 0) - 1);
      expect(rect.bottom, where).to.be.at.most(Math.min(box.bottom, panel.bottom, innerHeight) + 1);
    }
  }

  for (const [what, width, height] of [
    ['the default launcher panel', 1280, 800],
    ['a phone', 390, 664],
    ['a phone on its side', 664, 390],
  ] as const) {
    it(`shows Cancel and Continue without scrolling in ${what}, also after a refused number`, async () => {
      await setViewport({ width, height });
      try {
        const key = await createKey({ paceMs: 0 });
        const el = await mount({ 'publishable-key': key, mode: 'launcher', channels: 'whatsapp,sms' });
        await openLauncher(el);
        await openForm(el);
        assertActionsShown(el);
        await submitNumber(el, '12');
        await until(() => $(el, '#channel-invalid'), 'no validation message');
        assertActionsShown(el);
      } finally {
        await setViewport({ width: 800, height: 600 });
      }
    });
  }

  it('is accessible with the form open and an invalid number', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ 'publishable-key': key, channels: 'whatsapp,sms' });
    await openForm(el);
    await expect(el).to.be.accessible();
    await submitNumber(el, '12');
    await expect(el).to.be.accessible();
  });
});

describe('channel hand-off state (DOM-free)', () => {
  it('parses the channels attribute', () => {
    const warnings: string[] = [];
    expect(parseChannels(' SMS ,whatsapp,, sms ,telegram', (w) => warnings.push(w))).to.deep.equal(['sms', 'whatsapp']);
    expect(warnings).to.have.length(1);
    expect(parseChannels(null)).to.deep.equal([]);
  });

  it('normalises and validates E.164', () => {
    expect(toE164('+49 (151) 123-45.678')).to.equal('+4915112345678');
    expect(toE164('+1 415 555 0123')).to.equal('+14155550123');
    for (const bad of ['4915112345678', '+0151123456', '+123456', '+1234567890123456', '+49 151 12x4567', '']) {
      expect(toE164(bad), bad).to.be.null;
    }
  });

  it('builds the body with optional fields only when set', () => {
    expect(handOffBody({ userId: 'u', phoneNumber: '+14155550123', agentDisplayName: ' ', threadId: null })).to.deep.equal({
      user_id: 'u',
      phone_number: '+14155550123',
    });
  });
});
