import type { AgentChat } from '../src/agent-chat.js';
import { EVENTS } from '../scripts/contract.ts';

const inline = document.querySelector<AgentChat>('#inline')!;
const launcher = document.querySelector<AgentChat>('#launcher')!;
const controls = document.querySelector<HTMLFormElement>('#controls')!;
const events = document.querySelector<HTMLElement>('#events')!;
const both = [inline, launcher];

// The host's upload function. Here it posts to the demo host's /__demo/uploads (demo/host/:
// a stand-in for the host's own storage; not part of the agent service) and returns the URL.
inline.uploadImage = async (file) => {
  const res = await fetch(new URL('/__demo/uploads', location.href), {
    method: 'POST',
    headers: { 'content-type': file.type },
    body: file,
  });
  if (!res.ok) throw new Error(`Upload failed (${res.status}).`);
  return ((await res.json()) as { url: string }).url;
};

// Buttons on the product cards; a press fires agent-chat-card-action (see the event log).
inline.cardActions = [
  { id: 'add-to-cart', label: 'Add to cart' },
  { id: 'size-guide', label: 'Size guide' },
];

// The playground maps each control to the attribute of the same name on both widgets.
controls.addEventListener('input', (event) => {
  const field = event.target as HTMLInputElement;
  if (field.name === 'accent') {
    for (const el of both) el.style.setProperty('--agent-chat-accent', field.value);
    return;
  }
  if (!field.name) return;
  const targets = field.name === 'heading' || field.name === 'agent-variables' ? [inline] : both;
  for (const el of targets) {
    if (field.value) el.setAttribute(field.name, field.value);
    else el.removeAttribute(field.name);
  }
});

// The builder preview: the dev login of the reference server (its development organization
// key, accepted only while it listens on this machine) returns a login session's token,
// which serves management and messaging of the agent; the widget gets it from
// `tokenProvider` and, with `preview`, offers traces, reruns on a version and the title.
// A real builder page gets such a token from its own back end: an organization key never
// goes to a browser.
const DEV_ORGANIZATION_API_KEY = 'org_dev_reference_server';
const previewStatus = document.querySelector<HTMLElement>('#preview-status')!;
async function builderToken(): Promise<string> {
  const res = await fetch(new URL('/management/v1/auth/login', location.href), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-organization-api-key': DEV_ORGANIZATION_API_KEY },
    body: JSON.stringify({ publishable_key: inline.publishableKey }),
  });
  if (!res.ok) {
    previewStatus.textContent = `Dev login refused (${res.status}): the preview is off.`;
    throw new Error(`Dev login failed (${res.status}).`);
  }
  previewStatus.textContent = 'Logged in as the builder (dev login).';
  return ((await res.json()) as { access_token: string }).access_token;
}
document.querySelector<HTMLInputElement>('#preview')!.addEventListener('change', (event) => {
  const on = (event.target as HTMLInputElement).checked;
  inline.tokenProvider = on ? builderToken : undefined;
  inline.preview = on;
  if (!on) previewStatus.textContent = '';
});

document.querySelector('#new-thread')!.addEventListener('click', () => inline.newThread());
document.querySelector('#toggle-launcher')!.addEventListener('click', () => launcher.toggle());
document.querySelector('#page-theme')!.addEventListener('click', (event) => {
  const root = document.documentElement;
  const dark = root.dataset.page !== 'dark';
  root.dataset.page = dark ? 'dark' : 'light';
  (event.target as HTMLButtonElement).textContent = dark ? 'Light page' : 'Dark page';
});

// Show what a host page receives: every event of the contract (the list the checks use).
for (const type of EVENTS) {
  document.addEventListener(type, (event) => {
    const detail = JSON.stringify((event as CustomEvent).detail, (key, value) =>
      key === 'message' && value && typeof value === 'object' ? { id: value.id, text: String(value.text).slice(0, 40) + '…' } : value,
    );
    const id = (event.target as HTMLElement).id;
    events.textContent = `${id} ${type} ${detail}\n${events.textContent ?? ''}`.slice(0, 4000);
  });
}
