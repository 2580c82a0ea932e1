import { expect } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import type { DisclaimerAcceptDetail } from '../../src/events.js';
import { $, collect, input, mount, sendByUser, type, unmountAll, until } from '../support/element.js';
import { createKey, forgetStorage, keyStats } from '../support/server.js';
import { closeTabs, tab } from '../support/tabs.js';

const TERMS = 'Answers are generated and may be wrong. Read the [terms](https://example.com/terms) **first**.';

/** The disclaimer (attribute `disclaimer`): nothing is sent until the reader accepts it, per `persist` and per text. */
describe('the disclaimer (disclaimer)', () => {
  afterEach(() => {
    unmountAll();
    closeTabs();
    forgetStorage();
  });

  const notice = (el: AgentChat) => $(el, '[part="disclaimer"]');
  const accept = (el: AgentChat) => $(el, '[part="disclaimer-accept"]') as HTMLButtonElement | null;
  const focused = (el: AgentChat) => el.shadowRoot!.activeElement;

  async function chat(attrs: Record<string, string> = {}, key?: string): Promise<{ el: AgentChat; key: string }> {
    key ??= await createKey({ paceMs: 0, replies: [{ text: 'Noted.', suggestions: ['Tell me more'] }] });
    const el = await mount({ 'publishable-key': key, disclaimer: TERMS, ...attrs });
    return { el, key };
  }

  it('blocks sending until accepted: the draft is kept, focus goes to the accept button, then the question goes out', async () => {
    const { el, key } = await chat();
    const sends = collect(el, 'agent-chat-send');
    const accepted = collect<DisclaimerAcceptDetail>(el, 'agent-chat-disclaimer-accept');
    // The markdown is rendered as a reply's is: a link that passed the URL check, bold text.
    expect(notice(el)!.querySelector('a')!.getAttribute('href')).to.equal('https://example.com/terms');
    expect(notice(el)!.querySelector('strong')!.textContent).to.equal('first');

    await type(el, 'Do you ship to Norway?');
    ($(el, '[part="send-button"]') as HTMLButtonElement).click();
    await el.updateComplete;
    expect(focused(el), 'focus on the accept button').to.equal(accept(el));
    await until(() => $(el, '.announcer')!.textContent!.includes('Accept the notice above'), 'the hint is not said');
    await el.send('from the page');
    expect(sends, 'nothing sent').to.deep.equal([]);
    expect(el.messages.filter((m) => m.role === 'user')).to.deep.equal([]);
    expect((await keyStats(key)).turnsRun).to.equal(0);
    expect(input(el).value, 'the draft is kept').to.equal('Do you ship to Norway?');

    accept(el)!.click();
    await until(() => !notice(el), 'the disclaimer stays');
    expect(accepted).to.deep.equal([{ text: TERMS }]);
    await until(() => focused(el) === input(el), 'focus does not go back to the text field');
    ($(el, '[part="send-button"]') as HTMLButtonElement).click();
    await until(() => el.status === 'idle' && el.messages.some((m) => m.role === 'agent' && m.text === 'Noted.'), 'no reply');
    expect(sends).to.have.length(1);
  });

  it('refuses a suggestion and a regenerate too while it waits (a changed text on a conversation under way)', async () => {
    const { el, key } = await chat({ disclaimer: '' });
    await sendByUser(el, 'hello');
    expect((await keyStats(key)).turnsRun).to.equal(1);
    el.disclaimer = 'New terms apply.';
    await until(() => notice(el), 'no disclaimer');
    $(el, '[part="suggestion"]')!.click();
    ($(el, '[part="regenerate-button"]') as HTMLButtonElement).click();
    await el.updateComplete;
    expect(el.messages.filter((m) => m.role === 'user').map((m) => m.text)).to.deep.equal(['hello']);
    // Once accepted, one question more is one turn more: the refused rerun never ran meanwhile.
    accept(el)!.click();
    await until(() => !notice(el), 'the disclaimer stays');
    await sendByUser(el, 'and now?');
    expect(el.messages.filter((m) => m.role === 'user').map((m) => m.text)).to.deep.equal(['hello', 'and now?']);
    expect((await keyStats(key)).turnsRun).to.equal(2);
  });

  it('is remembered after a reload (persist local), and asked again when its text changes', async () => {
    const first = await chat({ persist: 'local' });
    accept(first.el)!.click();
    await until(() => !notice(first.el), 'the disclaimer stays');
    first.el.remove();

    const again = await chat({ persist: 'local' }, first.key);
    expect(notice(again.el), 'accepted before the reload').to.equal(null);
    await sendByUser(again.el, 'hello');
    expect((await keyStats(first.key)).turnsRun).to.equal(1);

    again.el.disclaimer = `${TERMS} Updated.`;
    await until(() => notice(again.el), 'a changed text is not asked again');
    again.el.remove();
    const changed = await chat({ persist: 'local', disclaimer: `${TERMS} Updated.` }, first.key);
    expect(notice(changed.el), 'a changed text is asked again after a reload').to.exist;
  });

  it('accepted in another tab of the site (persist local), it goes here too, without a reload', async function () {
    this.timeout(20_000);
    const here = await chat({ persist: 'local' });
    await type(here.el, 'Do you ship to Norway?');
    const other = await tab(here.key, { disclaimer: TERMS.replace(/"/g, '&quot;') });
    const otherAccept = () => other.el.shadowRoot!.querySelector<HTMLButtonElement>('[part="disclaimer-accept"]');
    await until(otherAccept, 'the other tab shows the disclaimer');
    otherAccept()!.click();
    await until(() => !notice(here.el), 'the disclaimer stays here');
    // The draft is still there, and goes out.
    ($(here.el, '[part="send-button"]') as HTMLButtonElement).click();
    await until(() => here.el.messages.some((m) => m.role === 'agent' && m.text === 'Noted.'), 'the question did not go out');
  });

  it("a page's send() as it loads waits for the disclaimer's code: accepted on an earlier visit, the message goes out", async () => {
    // A page of its own: this page has the disclaimer's chunk already, a new one fetches it.
    const { key } = await chat({ persist: 'local' }).then(async ({ el, key }) => {
      accept(el)!.click();
      await until(() => !notice(el), 'the disclaimer stays');
      return { key };
    });
    unmountAll();
    const frame = document.createElement('iframe');
    frame.srcdoc = `<!doctype html><agent-chat base-url="${location.origin}" publishable-key="${key}" persist="local"
      disclaimer="${TERMS.replace(/"/g, '&quot;')}"></agent-chat>
      <script type="module">
        import '/src/agent-chat.ts';
        await customElements.whenDefined('agent-chat');
        document.querySelector('agent-chat').send('sent as the page loads');
      </script>`;
    document.body.append(frame);
    try {
      await until(() => {
        const el = frame.contentDocument?.querySelector('agent-chat') as AgentChat | null;
        const asked = el?.messages?.findIndex((m) => m.role === 'user' && m.text === 'sent as the page loads') ?? -1;
        return asked >= 0 && el!.messages[asked + 1]?.state === 'done';
      }, "the page's message was dropped");
      expect((await keyStats(key)).turnsRun).to.equal(1);
    } finally {
      frame.remove();
    }
  });

  it('keeps an edited question in its editor while it waits', async () => {
    const { el } = await chat({ disclaimer: '' });
    await sendByUser(el, 'hello');
    el.disclaimer = 'New terms apply.';
    await until(() => notice(el), 'no disclaimer');
    ($(el, '[part="edit-button"]') as HTMLButtonElement).click();
    await until(() => $(el, '.edit-input'), 'no editor');
    const editor = $(el, '.edit-input') as HTMLTextAreaElement;
    editor.value = 'hello again';
    editor.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    ($(el, '.edit-form button[type="submit"]') as HTMLButtonElement).click();
    await el.updateComplete;
    expect(($(el, '.edit-input') as HTMLTextAreaElement | null)?.value, 'the editor and its text').to.equal('hello again');
    expect(el.messages.filter((m) => m.role === 'user').map((m) => m.text)).to.deep.equal(['hello']);
  });

  it('is not kept across reloads with persist="none"', async () => {
    const first = await chat({ persist: 'none' });
    accept(first.el)!.click();
    await until(() => !notice(first.el), 'the disclaimer stays');
    first.el.remove();
    const again = await chat({ persist: 'none' }, first.key);
    expect(notice(again.el)).to.exist;
  });

  it('shows markup as text, as a reply does, and has no axe violations', async () => {
    const { el } = await chat({ disclaimer: 'Terms <img src=x onerror="window.__pwned = 1"> apply.' });
    expect(notice(el)!.querySelector('img')).to.equal(null);
    expect(notice(el)!.textContent).to.include('<img');
    await expect(el).to.be.accessible();
  });
});
