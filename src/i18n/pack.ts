/**
 * A host's language pack (`AgentChat.registerLocale`, docs/languages.md), checked and made
 * into a table where it enters. A pack is plain data, so a JSON file can carry it: every
 * text is a string, and a parametrised one (a function in `Strings`) is a template whose
 * `{name}` placeholders take the parameters named in `PACK_KEYS`, or an object of
 * templates chosen by its first parameter (`none` when it is not given, else the number's
 * plural category, `zero` `one` `two` `few` `many`, else `other`). What is wrong is left
 * out with one warning: English shows instead. This chunk is fetched only by a page that
 * registers a pack.
 */
import { warnOnce } from '../warn.js';
import type { Strings } from './strings.js';

type Params<F> = F extends (...args: infer A) => string ? { [I in keyof A]-?: string } : 0;

/**
 * Every key of `Strings`, with the names of its parameters (`0` for plain text): the
 * type requires each key, so this list and the docs' table (checked by
 * test/unit/pack.test.ts) follow `Strings`.
 */
export const PACK_KEYS: { [K in keyof Strings]: Params<Strings[K]> } = {
  heading: 0,
  placeholder: 0,
  inputLabel: 0,
  send: 0,
  stop: 0,
  typing: 0,
  newConversation: 0,
  close: 0,
  openChat: 0,
  openChatUnread: 0,
  jumpToLatest: 0,
  newMessages: ['count'],
  retry: 0,
  dismiss: 0,
  stopped: 0,
  interrupted: 0,
  queued: 0,
  replyTruncated: 0,
  unread: 0,
  regenerate: 0,
  edit: 0,
  attachImage: 0,
  removeAttachment: 0,
  attachedImage: 0,
  recommended: 0,
  unavailable: 0,
  copyCode: 0,
  copied: 0,
  copyReply: 0,
  copyFailed: 0,
  feedbackLabel: 0,
  feedbackUp: 0,
  feedbackDown: 0,
  feedbackReasonTitle: 0,
  feedbackInaccurate: 0,
  feedbackUnhelpful: 0,
  feedbackUnsafe: 0,
  feedbackOther: 0,
  feedbackSend: 0,
  feedbackThanks: 0,
  dictate: 0,
  dictateStop: 0,
  micDenied: 0,
  dictationFailed: 0,
  readAloud: 0,
  readAloudStop: 0,
  tableLabel: 0,
  cardsLabel: 0,
  previousCards: 0,
  nextCards: 0,
  cardsUnavailable: 0,
  cardLink: 0,
  yes: 0,
  no: 0,
  reconnecting: 0,
  messageListLabel: 0,
  agentName: 0,
  userName: 0,
  welcomeLabel: 0,
  suggestionsLabel: 0,
  history: 0,
  exportConversation: 0,
  disclaimerAccept: 0,
  disclaimerHint: 0,
  removeConversation: 0,
  save: 0,
  cancel: 0,
  historyEmpty: 0,
  closeHistory: 0,
  showEarlier: ['count'],
  showMoreCards: ['count'],
  untitledConversation: 0,
  previousVersion: 0,
  nextVersion: 0,
  versionPosition: ['current', 'total'],
  channelButton: ['channel'],
  channelPhoneLabel: 0,
  channelSubmit: 0,
  channelCancel: 0,
  channelDone: ['channel'],
  channelBack: 0,
  channelGeneric: 0,
  channelChoice: 0,
  channelPhoneHint: 0,
  channelPhoneInvalid: 0,
  channelConsent: ['channel'],
  channelFailed: 0,
  channelSending: 0,
  imageMessage: 0,
  attachmentTypeError: ['name'],
  attachmentSizeError: ['name', 'maxMegabytes'],
  uploadingImage: 0,
  uploadFailed: ['details'],
  uploadInvalidUrl: 0,
  dropImage: 0,
  announce: ['sender', 'text'],
  suggestionsAvailable: ['count'],
  productsShown: ['count'],
  errorOffline: 0,
  errorNetwork: 0,
  errorAuth: 0,
  errorValidation: ['details'],
  errorServer: 0,
  errorRateLimited: ['seconds'],
  errorTimeout: 0,
  errorStreamInterrupted: 0,
  errorModelBusy: ['seconds'],
  errorModelUnavailable: 0,
  errorModelFailed: 0,
  errorGeneric: 0,
  loadFailed: 0,
  threadGone: 0,
  otherTab: 0,
  unsent: 0,
  errorConfiguration: ['details'],
  chatUnavailable: 0,
  trace: 0,
  closeTrace: 0,
  traceLoading: 0,
  traceFailed: ['details'],
  traceTruncated: 0,
  rerunVersion: 0,
  versionLive: ['tag'],
  untitledThread: 0,
  renameThread: 0,
  saveTitle: 0,
  cancelRename: 0,
  threadTitle: 0,
  renameFailed: ['details'],
  previewNoManagement: 0,
  previewRefused: 0,
};

const FORMS = new Set(['none', 'zero', 'one', 'two', 'few', 'many', 'other']);
/** A text longer than this is no UI string (a file read by mistake): it is left out. */
const MAX_TEXT = 2000;

type Text = (...args: unknown[]) => string;

/** `{name}` becomes the parameter of that name, as text; a placeholder it does not know stays as written. */
export function fill(template: string, params: readonly string[], args: readonly unknown[]): string {
  return template
    .replace(/\{(\w+)\}/g, (whole, name: string) => {
      const i = params.indexOf(name);
      return i < 0 ? whole : String(args[i] ?? '');
    })
    .trim();
}

/** A template, or templates by form, as a text function; null (with a warning) when it is neither. */
function compile(lang: string, key: string, value: unknown, params: readonly string[]): Text | null {
  const forms: Record<string, unknown> = typeof value === 'string' ? { other: value } : isRecord(value) ? value : {};
  const templates = new Map<string, string>();
  for (const [form, template] of Object.entries(forms)) {
    if (FORMS.has(form) && typeof template === 'string' && template.length <= MAX_TEXT) templates.set(form, template);
    else
      warnOnce(`registerLocale("${lang}"): ${key}.${form} is not a form (none, zero, one, two, few, many, other) with a text; left out.`);
  }
  for (const template of templates.values())
    for (const [, name] of template.matchAll(/\{(\w+)\}/g))
      if (!params.includes(name!))
        warnOnce(`registerLocale("${lang}"): ${key} has no parameter {${name}} (it has ${params.map((p) => `{${p}}`).join(', ')}).`);
  if (!templates.has('other')) {
    warnOnce(`registerLocale("${lang}"): ${key} needs a template (a string, or {other: …}); English is shown.`);
    return null;
  }
  let plural: Intl.PluralRules | undefined;
  return (...args) => {
    const first = args[0];
    let form = 'other';
    if (first === undefined || first === '') form = 'none';
    else if (typeof first === 'number') form = (plural ??= pluralRules(lang)).select(first);
    return fill(templates.get(form) ?? templates.get('other')!, params, args);
  };
}

/** A tag `Intl` does not take (`registerLocale` takes any name) counts as English. */
function pluralRules(lang: string): Intl.PluralRules {
  try {
    return new Intl.PluralRules(lang);
  } catch {
    return new Intl.PluralRules('en');
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The pack as a table: only its known keys, each the right kind. Unknown keys, texts that
 * are not strings and templates that cannot be used warn once and are left out, so the
 * English text shows there.
 */
export function compilePack(lang: string, pack: unknown, dir?: unknown): Partial<Strings> {
  const table: Record<string, string | Text> = {};
  if (dir != null && dir !== 'rtl' && dir !== 'ltr')
    warnOnce(`registerLocale("${lang}"): dir must be "rtl" or "ltr"; the language's own is used.`);
  if (!isRecord(pack)) {
    warnOnce(`registerLocale("${lang}"): the strings must be an object of texts; English is shown.`);
    return table;
  }
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(pack)) {
    const params: 0 | readonly string[] | undefined = Object.hasOwn(PACK_KEYS, key) ? PACK_KEYS[key as keyof Strings] : undefined;
    if (params === undefined) unknown.push(key);
    else if (params !== 0) {
      const text = compile(lang, key, value, params);
      if (text) table[key] = text;
    } else if (typeof value === 'string' && value.length <= MAX_TEXT) table[key] = value;
    else warnOnce(`registerLocale("${lang}"): ${key} must be a string; English is shown.`);
  }
  if (unknown.length) warnOnce(`registerLocale("${lang}"): unknown keys left out: ${unknown.join(', ')}.`);
  return table as Partial<Strings>;
}
