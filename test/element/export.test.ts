import { expect } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import { $, mount, sendByUser, unmountAll, until } from '../support/element.js';
import { readCards } from '../../src/client/guards.js';
import { createKey, tokenFor } from '../support/server.js';

const TENT = {
  json_data: { entity: { title: 'Dome tent', price: 120, currency: 'USD', url: 'https://shop.example/dome' } },
  is_recommended: true,
  index: 0,
};
const STOVE = { json_data: { entity: { name: 'Camp stove', price: 35 } }, index: 1 };

const REPLIES = [
  { text: 'Two tents fit:', cards: [TENT, STOVE], suggestions: ['Which is lighter?'] },
  { text: 'The **dome** is lighter.' },
];

type WireMessage = { id: string; created_at: string; text: string; sender: { type: string; id?: string }; cards: unknown[] };

/**
 * The thread as the service's transcript endpoint has it, its cards as the widget reads
 * any card (src/client/guards.ts: `sub_entities` always a list, values other than text,
 * numbers and flags left out), which is how an export has them.
 */
async function transcript(key: string, threadId: string): Promise<Array<WireMessage & Record<string, unknown>>> {
  const res = await fetch(`/messaging/v1/threads/${threadId}/messages`, { headers: { authorization: `Bearer ${await tokenFor(key)}` } });
  const messages = (await res.json()) as Array<WireMessage & Record<string, unknown>>;
  return messages.map((m) => ({ ...m, cards: readCards(m.cards) }));
}

/** What a message of the wire says, besides what only the service knows (receiver, token counts). */
const said = ({ id, text, sender, cards, followup_suggestions }: Record<string, unknown>) => ({
  id,
  text,
  sender,
  cards,
  followup_suggestions,
});
/** That, and when it was written. */
const stamped = (m: Record<string, unknown>) => ({ ...said(m), created_at: m.created_at });

async function conversation(attrs: Record<string, string> = {}): Promise<{ el: AgentChat; key: string }> {
  const key = await createKey({ paceMs: 0, replies: REPLIES });
  const el = await mount({ 'publishable-key': key, 'user-id': 'u-export', ...attrs });
  await sendByUser(el, 'Which tent for two? <the "best">');
  await sendByUser(el, 'And the lighter one?');
  return { el, key };
}

describe('save the conversation', () => {
  afterEach(() => unmountAll());

  it("exportTranscript('json') is the shown branch as the service's transcript has it", async () => {
    const { el, key } = await conversation();
    const exported = JSON.parse(await el.exportTranscript('json')) as WireMessage[];
    const service = await transcript(key, el.threadId!);
    expect(exported.map(said)).to.deep.equal(service.map(said));
    // The replies are the service's own messages; the questions were stamped as they were sent.
    const times = (list: WireMessage[]) => list.filter((m) => m.sender.type === 'agent').map((m) => m.created_at);
    expect(times(exported)).to.deep.equal(times(service));

    // After a reload (the conversation as the transcript gave it), every message is the service's.
    const threadId = el.threadId!;
    unmountAll();
    const again = await mount({ 'publishable-key': key, 'user-id': 'u-export', 'thread-id': threadId });
    const reloaded = JSON.parse(await again.exportTranscript('json')) as WireMessage[];
    expect(reloaded.map(stamped)).to.deep.equal(service.map(stamped));
  });

  it("exportTranscript('markdown'): each message with its speaker and time, the cards as a list of their titles and links", async () => {
    const { el } = await conversation({ 'agent-display-name': 'Trailhead' });
    const markdown = await el.exportTranscript('markdown');
    expect(markdown.startsWith('# Which tent for two? \\<the "best"\\>\n\n')).to.equal(true);
    const blocks = markdown.trimEnd().split('\n\n---\n\n');
    expect(blocks).to.have.length(4);
    expect(blocks[0]).to.match(/^# .*\n\n\*\*You\*\* · .*\d.*\n\nWhich tent for two\? \\<the "best"\\>$/);
    expect(blocks[1]).to.match(
      /^\*\*Trailhead\*\* · .*\d.*\n\nTwo tents fit:\n\n- \[Dome tent\]\(<https:\/\/shop\.example\/dome>\)\n- Camp stove$/,
    );
    expect(blocks[3]).to.match(/\n\nThe \*\*dome\*\* is lighter\.$/);
    // What the method gets by default.
    expect(await el.exportTranscript()).to.equal(markdown);
  });

  it('the header button downloads the Markdown, named after the conversation', async () => {
    const key = await createKey({ paceMs: 0, replies: REPLIES });
    const el = await mount({ 'publishable-key': key });
    expect($(el, '[part="export-button"]'), 'a button with nothing to save').to.equal(null);
    await sendByUser(el, 'Which tent: "dome"/tunnel?');
    await until(() => $(el, '[part="export-button"]'), 'no export button');
    const button = $(el, '[part="export-button"]')!;
    expect(button.getAttribute('aria-label')).to.equal('Save conversation');

    const files: Blob[] = [];
    const links: HTMLAnchorElement[] = [];
    const { createObjectURL } = URL;
    const { click } = HTMLAnchorElement.prototype;
    URL.createObjectURL = (blob: Blob) => (files.push(blob), createObjectURL(blob));
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      links.push(this);
    };
    try {
      button.click();
    } finally {
      URL.createObjectURL = createObjectURL;
      HTMLAnchorElement.prototype.click = click;
    }
    expect(links).to.have.length(1);
    expect(links[0]!.download).to.equal('Which tent dome tunnel.md');
    expect(files[0]!.type).to.equal('text/markdown;charset=utf-8');
    expect(await files[0]!.text()).to.equal(await el.exportTranscript('markdown'));
  });

  it("loads a launcher's conversation that was never opened, and exports it", async () => {
    const { el, key } = await conversation();
    const threadId = el.threadId!;
    unmountAll();
    const launcher = await mount({ 'publishable-key': key, 'user-id': 'u-export', 'thread-id': threadId, mode: 'launcher' });
    expect(launcher.messages).to.have.length(0);
    const exported = JSON.parse(await launcher.exportTranscript('json')) as WireMessage[];
    expect(exported.map(stamped)).to.deep.equal((await transcript(key, threadId)).map(stamped));
    expect(exported).to.have.length(4);
  });
});
