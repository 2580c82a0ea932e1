import { expect } from '@open-wc/testing';
import type { Tokens } from 'marked';
import type { AgentChat } from '../../src/agent-chat.js';
import { $, $$, mount, sendByUser, unmountAll, until } from '../support/element.js';
import { readCards } from '../../src/client/guards.js';
import { decodeEntities } from '../../src/markdown/entities.js';
import { lexMarkdown } from '../../src/markdown/lex.js';
import { safeUrl } from '../../src/security/url.js';
import { createKey, loginToken } from '../support/server.js';

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
  const res = await fetch(`/messaging/v1/threads/${threadId}/messages`, { headers: { authorization: `Bearer ${await loginToken(key)}` } });
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

/** Clicks the save button: the files it made and the links it clicked, once it has made one. */
async function download(button: HTMLElement): Promise<{ files: Blob[]; links: HTMLAnchorElement[] }> {
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
    await until(() => links.length, 'no download');
  } finally {
    URL.createObjectURL = createObjectURL;
    HTMLAnchorElement.prototype.click = click;
  }
  return { files, links };
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
    const blocks = markdown.trimEnd().split(/\n\n(?=## )/);
    expect(blocks).to.have.length(5);
    expect(blocks[1]).to.match(/^## You · .*\d.*\n\nWhich tent for two\? \\<the "best"\\>$/);
    expect(blocks[2]).to.match(
      /^## Trailhead · .*\d.*\n\nTwo tents fit:\n\n- \[Dome tent\]\(<https:\/\/shop\.example\/dome>\)\n- Camp stove$/,
    );
    expect(blocks[4]).to.match(/\n\nThe \*\*dome\*\* is lighter\.$/);
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

    const { files, links } = await download(button);
    expect(links).to.have.length(1);
    expect(links[0]!.download).to.equal('Which tent dome tunnel.md');
    expect(files[0]!.type).to.equal('text/markdown;charset=utf-8');
    expect(await files[0]!.text()).to.equal(await el.exportTranscript('markdown'));
  });

  it('names the file so that no platform reads it as a device', async () => {
    const key = await createKey({ paceMs: 0, replies: REPLIES });
    const el = await mount({ 'publishable-key': key });
    await sendByUser(el, 'nul.tar');
    await until(() => $(el, '[part="export-button"]'), 'no export button');
    const { links } = await download($(el, '[part="export-button"]')!);
    expect(links[0]!.download).to.match(/^chat-\d{4}-\d\d-\d\d\.md$/);
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

/** Every token of a document as a Markdown reader that renders raw HTML reads it (marked, as the widget lexes). */
function tokensOf(markdown: string): Tokens.Generic[] {
  const all: Tokens.Generic[] = [];
  const walk = (tokens: unknown) => {
    for (const token of (tokens ?? []) as Tokens.Generic[]) {
      all.push(token);
      walk(token.tokens);
      walk(token.items);
      for (const cell of (token.header as Tokens.TableCell[] | undefined) ?? []) walk(cell.tokens);
      for (const row of (token.rows as Tokens.TableCell[][] | undefined) ?? []) for (const cell of row) walk(cell.tokens);
    }
  };
  walk(lexMarkdown(markdown, true));
  return all;
}

/** Replies that try to get a script, an unsafe link, a tracking image or a speaker of their own into the file. */
const HOSTILE = [
  '[js](javascript:alert(1)) [JS](JaVaScRiPt:alert(1)) [data](data:text/html,<script>alert(1)</script>) [vb](vbscript:msgbox(1))',
  '[ent](&#106;avascript:alert(1)) [hex](&#x6A;avascript&#x3A;alert(1)) [col](javascript&colon;alert(1)) [tab](java\tscript:alert(1))',
  '<javascript:alert(1)> <https://ok.example/auto> [ref][evil] [fine][ok]\n\n[evil]: javascript:alert(1)\n[ok]: https://ok.example/ref',
  '![pixel](https://tracker.example/p.gif?u=1) ![x](javascript:alert(1)) [![logo](https://tracker.example/l.png)](https://shop.example/)',
  '<img src=x onerror=alert(1)> <script>alert(1)</script> <a href="javascript:alert(1)">a</a> <iframe src="javascript:alert(1)">',
  '\n\n**You** · 12:00\n\nPlease paste your card number here.\n\n## You · 12:00\n\nYou · 12:00\n===\n\n```\n## You · 12:00\n```',
  '[https://bank.example](https://evil.example/login) and a table:\n\n| a | [b](javascript:alert(1)) |\n|---|---|\n| <img src=x onerror=y> | ![t](https://t.example/p.gif) |',
];

describe('a saved conversation is as safe as the view', () => {
  afterEach(() => unmountAll());

  async function hostile(attrs: Record<string, string> = {}): Promise<{ el: AgentChat; markdown: string }> {
    const key = await createKey({ paceMs: 0, replies: HOSTILE.map((text) => ({ text })) });
    const el = await mount({ 'publishable-key': key, ...attrs });
    for (const [i] of HOSTILE.entries())
      await sendByUser(el, i ? `question ${i}` : 'Title\n===\n- not a list\n> nor a quote [x](javascript:1)');
    await until(() => el.messages.length === HOSTILE.length * 2, 'not every reply came');
    return { el, markdown: await el.exportTranscript('markdown') };
  }

  it('hostile replies: no script, no unsafe link, no image, no speaker of their own; the question as typed', async () => {
    const { el, markdown } = await hostile();
    const tokens = tokensOf(markdown);
    for (const t of tokens) {
      expect(t.type, 'raw HTML').not.to.equal('html');
      expect(t.type, 'an image that would load as the file is previewed').not.to.equal('image');
      if (t.type === 'link')
        expect(/^(https?|mailto|tel):/.test(safeUrl(decodeEntities(t.href as string)) ?? ''), `a link to ${t.href as string}`).to.equal(
          true,
        );
    }
    // Headings of levels 1 and 2 are the title and the speakers, one per message, and nothing else.
    const top = tokens.filter((t) => t.type === 'heading' && (t.depth as number) <= 2).map((t) => t.text as string);
    expect(top).to.have.length(1 + HOSTILE.length * 2);
    top.slice(1).forEach((text, i) => expect(text).to.match(i % 2 ? /^Agent · .*\d/ : /^You · .*\d/));
    expect(markdown.split('\n').filter((line) => /^#{1,2}(?!#)/.test(line))).to.have.length(1 + HOSTILE.length * 2);

    for (const part of [
      '\\<img src=x onerror=alert(1)\\>',
      '\\<script\\>alert(1)\\</script\\>',
      '[pixel](<https://tracker.example/p.gif?u=1>)',
      '[https://bank.example](<https://evil.example/login>) (evil.example)',
      '\n\n**You** · 12:00\n\nPlease paste',
      '### You · 12:00',
      '   ```\n   ## You · 12:00\n   ```',
      // The reader's question, every construct escaped.
      'Title\\\n\\===\\\n\\- not a list\\\n\\> nor a quote \\[x\\](javascript:1)',
    ])
      expect(markdown).to.contain(part);

    // The links of the file are the view's: every link it shows, every image it shows (as a link), and no other.
    const replies = $$(el, '.message.agent:not(.welcome) [part="text"]');
    const shown = replies.flatMap((text) => [
      ...Array.from(text.querySelectorAll('a[href]'), (a) => (a as HTMLAnchorElement).href),
      // An image inside a link is that link's text in the file.
      ...Array.from(text.querySelectorAll('img[src]'), (img) => (img.closest('a') ? '' : (img as HTMLImageElement).src)).filter(Boolean),
    ]);
    const saved = tokens.filter((t) => t.type === 'link').map((t) => decodeURIComponent(t.href as string));
    expect([...new Set(saved)].sort()).to.deep.equal([...new Set(shown.map((url) => decodeURIComponent(url)))].sort());
  });

  it('with allow-html: raw HTML as the view sanitises it, images as links, headings below the speakers', async () => {
    const key = await createKey({
      paceMs: 0,
      replies: [
        {
          text: '<b>bold</b> <img src="https://tracker.example/p.gif" alt="pixel"> <script>alert(1)</script><a href="javascript:alert(1)" onclick="x()">a</a>\n\n<h2>You · 12:00</h2>\n\nplain **markdown** [js](javascript:alert(1))',
        },
      ],
    });
    const el = await mount({ 'publishable-key': key, 'allow-html': '' });
    await sendByUser(el, 'hi');
    await until(() => $(el, '.message.agent:not(.welcome) b'), 'the view did not render the HTML');
    const markdown = await el.exportTranscript('markdown');
    expect(markdown).to.contain('<b>bold</b>');
    expect(markdown).to.contain('<a href="https://tracker.example/p.gif">pixel</a>');
    expect(markdown).to.contain('<h4>You · 12:00</h4>');
    expect(markdown).to.contain('plain **markdown** js');
    expect(markdown).not.to.match(/<img|<script|javascript:|onclick|<h[12]/i);
    // One HTML block per block of the reply, on one line: nothing in it is read as Markdown.
    for (const t of tokensOf(markdown).filter((token) => token.type === 'html')) expect(t.text as string).not.to.contain('\n');
    const top = tokensOf(markdown).filter((t) => t.type === 'heading' && (t.depth as number) <= 2);
    expect(top).to.have.length(3);
  });
});
