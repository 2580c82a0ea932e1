import { expect } from '@open-wc/testing';
import { createKey, keyStats } from '../support/server.js';
import { $, input, mount, type, unmountAll, until } from '../support/element.js';
import type { AgentChat } from '../../src/agent-chat.js';
import { Attachments, checkImage, uploadedImageUrl } from '../../src/attachments/index.js';

// A 1×1 PNG: real bytes, so the demo upload endpoint accepts it and the browser can show it.
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (c) =>
  c.charCodeAt(0),
);
const png = (name = 'boot.png') => new File([PNG], name, { type: 'image/png' });

function transfer(...files: File[]): DataTransfer {
  const data = new DataTransfer();
  for (const file of files) data.items.add(file);
  return data;
}

/** The host's upload function, as the demo page writes it: the reference server's /__demo/uploads. */
async function uploadToDemo(file: File): Promise<string> {
  const res = await fetch('/__demo/uploads', { method: 'POST', headers: { 'content-type': file.type }, body: file });
  if (!res.ok) throw new Error(`upload ${res.status}`);
  return ((await res.json()) as { url: string }).url;
}

/** Records calls; each call waits for `release` when `hold` is set. */
function fakeUpload(impl: (file: File) => Promise<string> = uploadToDemo) {
  const calls: File[] = [];
  let release: () => void = () => {};
  const state = { hold: false };
  const fn = async (file: File) => {
    calls.push(file);
    if (state.hold) await new Promise<void>((resolve) => (release = resolve));
    return impl(file);
  };
  return { fn, calls, state, release: () => release() };
}

async function pick(el: AgentChat, file: File): Promise<void> {
  const field = $(el, 'input[type="file"]') as HTMLInputElement;
  field.files = transfer(file).files;
  field.dispatchEvent(new Event('change', { bubbles: true }));
  await el.updateComplete;
}

const preview = (el: AgentChat) => $(el, '[part="attachment"]');
const attachError = (el: AgentChat) => $(el, '.attachment-error');
const sendButton = (el: AgentChat) => $(el, '[part="send-button"]') as HTMLButtonElement;
const messageRequests = async (key: string) => (await keyStats(key)).requests.filter((r) => r.path.startsWith('/messaging/v1/messages'));

describe('<agent-chat> image attachments', () => {
  afterEach(unmountAll);

  it('shows the attach control only when uploadImage is set', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ 'publishable-key': key });
    expect($(el, '[part="attach-button"]')).to.be.null;
    expect($(el, 'input[type="file"]')).to.be.null;
    el.uploadImage = fakeUpload().fn;
    await el.updateComplete;
    const button = $(el, '[part="attach-button"]')!;
    expect(button.getAttribute('aria-label')).to.equal('Attach image');
    const field = $(el, 'input[type="file"]') as HTMLInputElement;
    expect(field.accept).to.equal('image/*');
    let opened = false;
    field.click = () => (opened = true);
    button.click();
    expect(opened).to.be.true;
  });

  it('previews a picked image with its name and a remove button; removing revokes the thumbnail', async () => {
    const revoked: string[] = [];
    const original = URL.revokeObjectURL;
    URL.revokeObjectURL = (url: string) => {
      revoked.push(url);
      original.call(URL, url);
    };
    try {
      const key = await createKey({ paceMs: 0 });
      const el = await mount({ 'publishable-key': key }, { uploadImage: fakeUpload().fn });
      await pick(el, png('trail-boot.png'));
      const shown = preview(el)!;
      const thumb = shown.querySelector('img')!;
      expect(thumb.src).to.match(/^blob:/);
      expect(shown.textContent).to.contain('trail-boot.png');
      const remove = shown.querySelector<HTMLButtonElement>('button')!;
      expect(remove.getAttribute('aria-label')).to.equal('Remove attachment');
      expect(sendButton(el).disabled, 'an image alone can be sent').to.be.false;
      remove.click();
      await el.updateComplete;
      expect(preview(el)).to.be.null;
      expect(revoked).to.include(thumb.src);
      expect(el.shadowRoot!.activeElement).to.equal(input(el));
    } finally {
      URL.revokeObjectURL = original;
    }
  });

  it('attaches an image pasted into the text field', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ 'publishable-key': key }, { uploadImage: fakeUpload().fn });
    const data = transfer(png('pasted.png'));
    const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true, composed: true });
    // Firefox ignores `clipboardData` in a constructed ClipboardEvent (it gets an empty one).
    if (!event.clipboardData?.files.length) Object.defineProperty(event, 'clipboardData', { value: data });
    input(el).dispatchEvent(event);
    await el.updateComplete;
    expect(preview(el)!.textContent).to.contain('pasted.png');
    expect(event.defaultPrevented, 'an image-only clipboard pastes no text').to.be.true;
  });

  it('attaches an image dropped on the composer, with a visible drop state while dragging', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ 'publishable-key': key }, { uploadImage: fakeUpload().fn });
    const composer = $(el, '[part="composer"]')!;
    const data = transfer(png('dropped.png'));
    const drag = (type: string) => {
      const event = new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true, composed: true });
      composer.dispatchEvent(event);
      return event;
    };
    drag('dragenter');
    expect(drag('dragover').defaultPrevented, 'the drop is accepted').to.be.true;
    await el.updateComplete;
    expect(composer.classList.contains('dropping')).to.be.true;
    expect($(el, '.drop-hint')!.textContent).to.contain('Drop the image');
    drag('drop');
    await el.updateComplete;
    expect(composer.classList.contains('dropping')).to.be.false;
    expect(preview(el)!.textContent).to.contain('dropped.png');
  });

  it('rejects other file types and oversized images with an error, keeps the text and never uploads', async () => {
    const key = await createKey({ paceMs: 0 });
    const upload = fakeUpload();
    const el = await mount({ 'publishable-key': key }, { uploadImage: upload.fn });
    await type(el, 'what is this?');

    await pick(el, new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }));
    expect(preview(el)).to.be.null;
    expect(attachError(el)!.getAttribute('role')).to.equal('alert');
    expect(attachError(el)!.textContent).to.contain('logo.svg').and.contain('PNG, JPEG, GIF or WebP');

    await pick(el, new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'huge.png', { type: 'image/png' }));
    expect(preview(el)).to.be.null;
    expect(attachError(el)!.textContent).to.contain('huge.png').and.contain('10 MB');

    expect(input(el).value).to.equal('what is this?');
    sendButton(el).click();
    await until(() => el.status === 'idle' && el.messages.length === 2);
    expect(upload.calls).to.have.length(0);
    expect((await messageRequests(key))[0]!.body).to.not.have.property('image_url');
  });

  it('uploads on send, then sends the returned URL as image_url; the message shows the image', async () => {
    const key = await createKey({ paceMs: 0, replies: [{ text: 'Nice boots.' }] });
    const upload = fakeUpload();
    upload.state.hold = true;
    const el = await mount({ 'publishable-key': key }, { uploadImage: upload.fn });
    await pick(el, png('boots.png'));
    await type(el, 'are these waterproof?');
    sendButton(el).click();
    await until(() => upload.calls.length === 1);
    await el.updateComplete;
    expect(preview(el)!.textContent).to.contain('Uploading image');
    expect(sendButton(el).disabled).to.be.true;
    expect(await messageRequests(key)).to.have.length(0);

    upload.release();
    await until(() => el.status === 'idle' && el.messages.length === 2, 'turn ended');
    const [request] = await messageRequests(key);
    const body = request!.body as { text: string; image_url: string };
    expect(body.text).to.equal('are these waterproof?');
    expect(body.image_url).to.match(/\/__demo\/uploads\/[0-9a-f]{24}$/);
    expect(preview(el)).to.be.null;
    expect(input(el).value).to.equal('');

    const image = $(el, '.message.user img')! as HTMLImageElement;
    expect(image.src).to.equal(body.image_url);
    expect(image.alt).to.equal('Attached image');
    image.loading = 'eager';
    await until(() => image.complete && image.naturalWidth === 1, 'the uploaded image loads');
  });

  it('sends an image without text as the localized "Image"', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ 'publishable-key': key }, { uploadImage: fakeUpload().fn });
    await pick(el, png());
    sendButton(el).click();
    await until(() => el.status === 'idle' && el.messages.length === 2);
    expect(((await messageRequests(key))[0]!.body as { text: string }).text).to.equal('Image');
  });

  it('keeps text and attachment when the upload fails, and sends on retry', async () => {
    const key = await createKey({ paceMs: 0 });
    let failing = true;
    const upload = fakeUpload((file) => (failing ? Promise.reject(new Error('Storage is full.')) : uploadToDemo(file)));
    const el = await mount({ 'publishable-key': key }, { uploadImage: upload.fn });
    await pick(el, png('kept.png'));
    await type(el, 'keep me');
    sendButton(el).click();
    await until(() => attachError(el), 'upload error shown');
    expect(attachError(el)!.textContent).to.contain('could not be uploaded').and.contain('Storage is full.');
    expect(preview(el)!.textContent).to.contain('kept.png');
    expect(input(el).value).to.equal('keep me');
    expect(el.messages).to.have.length(0);
    expect(await messageRequests(key)).to.have.length(0);

    failing = false;
    sendButton(el).click();
    await until(() => el.status === 'idle' && el.messages.length === 2);
    expect(upload.calls).to.have.length(2);
    expect(((await messageRequests(key))[0]!.body as { image_url?: string }).image_url).to.be.a('string');
    expect(attachError(el)).to.be.null;
  });

  it('refuses an upload URL that is not http(s)', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ 'publishable-key': key }, { uploadImage: async () => 'javascript:alert(1)' });
    await pick(el, png());
    await type(el, 'look');
    sendButton(el).click();
    await until(() => attachError(el));
    expect(attachError(el)!.textContent).to.contain('unusable address');
    expect(preview(el)).to.not.be.null;
    expect(await messageRequests(key)).to.have.length(0);
  });

  it('revokes the thumbnail when the element leaves the page', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ 'publishable-key': key }, { uploadImage: fakeUpload().fn });
    await pick(el, png());
    const url = preview(el)!.querySelector('img')!.src;
    const revoked: string[] = [];
    const original = URL.revokeObjectURL;
    URL.revokeObjectURL = (u: string) => void revoked.push(u);
    try {
      el.remove();
    } finally {
      URL.revokeObjectURL = original;
    }
    expect(revoked).to.deep.equal([url]);
  });

  it('is accessible with an attachment and an error shown', async () => {
    const key = await createKey({ paceMs: 0 });
    const el = await mount({ 'publishable-key': key }, { uploadImage: fakeUpload().fn });
    await pick(el, png());
    await pick(el, new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(preview(el)).to.not.be.null;
    expect(attachError(el)).to.not.be.null;
    await expect(el).to.be.accessible();
  });
});

describe('attachment state (DOM-free)', () => {
  const fakeUrls = () => {
    const log: string[] = [];
    let n = 0;
    return { log, urls: { create: () => `blob:test/${++n}`, revoke: (u: string) => void log.push(u) } };
  };

  it('checks type and size', () => {
    expect(checkImage({ name: 'a.webp', type: 'image/webp', size: 10 })).to.be.null;
    expect(checkImage({ name: 'a.heic', type: 'image/heic', size: 10 })).to.deep.equal({ kind: 'type', name: 'a.heic' });
    expect(checkImage({ name: 'a.gif', type: 'image/gif', size: 11 }, 10)).to.deep.equal({ kind: 'size', name: 'a.gif', maxBytes: 10 });
  });

  it('accepts only http(s) upload URLs', () => {
    expect(uploadedImageUrl('https://cdn.example/x.png?sig=1')).to.equal('https://cdn.example/x.png?sig=1');
    for (const bad of ['javascript:alert(1)', 'data:image/png;base64,AA', 'blob:https://x/1', 'mailto:a@b', 42, null]) {
      expect(uploadedImageUrl(bad), String(bad)).to.be.null;
    }
  });

  it('revokes the previous preview on replace, and drops a late upload result for a removed file', async () => {
    const { log, urls } = fakeUrls();
    const state = new Attachments(undefined, urls);
    state.attach(png('one.png'));
    state.attach(png('two.png'));
    expect(log).to.deep.equal(['blob:test/1']);
    let resolve: (url: string) => void = () => {};
    const pending = state.upload(() => new Promise<string>((r) => (resolve = r)));
    expect(state.status).to.equal('uploading');
    state.clear();
    resolve('https://cdn.example/two.png');
    expect(await pending).to.be.null;
    expect(state.status).to.equal('empty');
    expect(log).to.deep.equal(['blob:test/1', 'blob:test/2']);
  });
});
