import { expect } from '@open-wc/testing';
import { AgentChat } from '../../src/agent-chat.js';
import { $, input, mount, sendByUser, unmountAll, until } from '../support/element.js';
import { createKey } from '../support/server.js';

/** What a host loads from a JSON file (docs/languages.md), Brazilian and European Portuguese. */
const BRAZIL = { placeholder: 'Digite uma mensagem…', send: 'Enviar', heading: 'Conversa', openChat: 'Abrir conversa' };
const PORTUGAL = { placeholder: 'Escreva uma mensagem…', send: 'Enviar', heading: 'Conversa' };

const heading = (el: AgentChat) => $(el, '[part="heading"]')!.textContent!.trim();
const sendButton = (el: AgentChat) => $(el, '[part="send-button"]')!;
const widget = async (lang: string, attrs: Record<string, string> = {}) =>
  mount({ 'publishable-key': await createKey({ paceMs: 0, replies: [{ text: 'Olá' }] }), lang, ...attrs });

describe('AgentChat.registerLocale', () => {
  afterEach(() => unmountAll());

  it('shows a registered pack for its tag, and a language pack for the tags of that language', async () => {
    AgentChat.registerLocale('pt-BR', BRAZIL);
    AgentChat.registerLocale('pt', PORTUGAL);
    const brazil = await widget('pt-BR');
    expect(input(brazil).placeholder).to.equal('Digite uma mensagem…');
    expect(heading(brazil)).to.equal('Conversa');
    expect(sendButton(brazil).getAttribute('aria-label')).to.equal('Enviar');
    const portugal = await widget('pt-PT');
    expect(input(portugal).placeholder).to.equal('Escreva uma mensagem…');
    const launcher = await widget('pt-br', { mode: 'launcher' });
    expect($(launcher, '[part="launcher"]')!.getAttribute('aria-label'), 'the shell’s texts, before the panel').to.equal('Abrir conversa');
    expect($(launcher, '[part="panel"]')).to.equal(null);
  });

  it('lays out a pack registered right to left from right to left', async () => {
    AgentChat.registerLocale('he', { placeholder: 'הקלידו הודעה…', send: 'שליחה' }, { dir: 'rtl' });
    const el = await widget('he');
    expect($(el, '[part="panel"]')!.getAttribute('dir')).to.equal('rtl');
    expect(getComputedStyle(input(el)).direction).to.equal('rtl');
    expect(input(el).placeholder).to.equal('הקלידו הודעה…');
  });

  it("shows English where the pack has no text, a lazy feature's included", async () => {
    AgentChat.registerLocale('pt-AO', { placeholder: 'Escreva…', heading: 42 } as never);
    const el = await widget('pt-AO');
    expect(input(el).placeholder).to.equal('Escreva…');
    expect(heading(el), 'a text that is not a string is left out').to.equal('Chat');
    await sendByUser(el, 'oi');
    await until(() => $(el, '.message.agent:not(.welcome) [part="copy-button"]'), 'no copy button');
    expect($(el, '.message.agent:not(.welcome) [part="copy-button"]')!.getAttribute('aria-label')).to.equal('Copy reply');
  });

  it('replaces a shipped language, in the widgets already showing it', async () => {
    const el = await widget('de');
    const shipped = input(el).placeholder;
    expect(shipped).to.not.equal('Type a message…');
    AgentChat.registerLocale('de', { placeholder: 'Fragen Sie uns' });
    await until(() => input(el).placeholder === 'Fragen Sie uns', 'the widget kept the shipped table');
    expect(heading(el), 'the pack replaces the table: English where it has no text').to.equal('Chat');
  });
});
