import { enLauncher } from './en-launcher.js';

/**
 * Every piece of text the widget shows or announces. Hosts override any of it through the
 * `strings` property (README "Languages"); parametrised strings are functions so word order can
 * follow the language instead of being glued together in the element.
 */
export interface Strings {
  /** Header title when no `heading` attribute is set. */
  heading: string;
  placeholder: string;
  /** Accessible name of the composer textarea. */
  inputLabel: string;
  send: string;
  stop: string;
  /** Shown and announced while the agent works on a reply. */
  typing: string;
  newConversation: string;
  close: string;
  openChat: string;
  openChatUnread: string;
  jumpToLatest: string;
  /** On "jump to latest": how many messages came since the reader last saw the end. */
  newMessages: (count: number) => string;
  retry: string;
  /** Closes a notice. */
  dismiss: string;
  /** Under a reply the reader stopped. */
  stopped: string;
  /** Under a reply whose stream failed. */
  interrupted: string;
  /** Under a message written offline, until it is sent. */
  queued: string;
  /** Under a reply longer than `max-reply-length`, cut there. */
  replyTruncated: string;
  /** Announced with the launcher's unread dot. */
  unread: string;
  regenerate: string;
  edit: string;
  attachImage: string;
  removeAttachment: string;
  /** Alt text of an image the user attached. */
  attachedImage: string;
  recommended: string;
  /** Read out after a card option that is out of stock. */
  unavailable: string;
  copyCode: string;
  copied: string;
  /** The button under a finished reply that copies its text (part `copy-button`). */
  copyReply: string;
  /** Announced when the clipboard refused the text (the button keeps its name). */
  copyFailed: string;
  /** The thumbs group under a reply (attribute `feedback`). */
  feedbackLabel: string;
  feedbackUp: string;
  feedbackDown: string;
  /** After a thumbs-down: the question above the reasons. */
  feedbackReasonTitle: string;
  /** The reasons offered after a thumbs-down (besides free text). */
  feedbackInaccurate: string;
  feedbackUnhelpful: string;
  feedbackUnsafe: string;
  /** Placeholder of the free-text reason. */
  feedbackOther: string;
  feedbackSend: string;
  /** Announced once a reason was sent (the form closes). */
  feedbackThanks: string;
  /** The dictation button (attribute `voice`), idle and listening. */
  dictate: string;
  dictateStop: string;
  /** The browser or the reader refused the microphone. */
  micDenied: string;
  /** Dictation failed otherwise (no speech service, network). */
  dictationFailed: string;
  /** The button under a finished reply that reads it aloud (attribute `read-aloud`); its tooltip while it reads. */
  readAloud: string;
  readAloudStop: string;
  /** Accessible name of the horizontally scrolling region around a table. */
  tableLabel: string;
  /** Accessible name of the list of cards in one message. */
  cardsLabel: string;
  /** The card row's scroll buttons (parts `card-prev`, `card-next`). */
  previousCards: string;
  nextCards: string;
  /** In place of a reply's cards when their code could not be fetched (offline). */
  cardsUnavailable: string;
  /** Link text of a card that has a URL. */
  cardLink: string;
  yes: string;
  no: string;
  reconnecting: string;
  messageListLabel: string;
  agentName: string;
  userName: string;
  welcomeLabel: string;
  suggestionsLabel: string;
  history: string;
  /** The header's button that downloads the conversation as a Markdown file (part `export-button`). */
  exportConversation: string;
  /** The disclaimer's accept button (attribute `disclaimer`). */
  disclaimerAccept: string;
  /** Said (polite region) when a send is refused because the disclaimer is not accepted yet; the draft is kept. */
  disclaimerHint: string;
  removeConversation: string;
  save: string;
  cancel: string;
  historyEmpty: string;
  /** Closes the list of conversations (the panel's close button is `close`). */
  closeHistory: string;
  /** Button above a long conversation's first rendered message; `count` are hidden. */
  showEarlier: (count: number) => string;
  /** The button under a reply's cards when it has more than are shown at once. */
  showMoreCards: (count: number) => string;
  untitledConversation: string;
  previousVersion: string;
  nextVersion: string;
  versionPosition: (current: number, total: number) => string;
  /** `channel` is a display name such as "WhatsApp" or "SMS". */
  channelButton: (channel: string) => string;
  channelPhoneLabel: string;
  channelSubmit: string;
  channelCancel: string;
  channelDone: (channel: string) => string;
  /** Dismisses the hand-off confirmation and returns to the conversation. */
  channelBack: string;
  /** The hand-off button and form title when more than one channel is offered. */
  channelGeneric: string;
  /** Legend of the channel choice (radio group). */
  channelChoice: string;
  /** Under the phone field: the format expected. */
  channelPhoneHint: string;
  /** The number is not a full international (E.164) number; nothing was sent. */
  channelPhoneInvalid: string;
  /** Consent line of the hand-off form. */
  channelConsent: (channel: string) => string;
  /** The service refused or failed the hand-off; its details follow. */
  channelFailed: string;
  /** Submit button while the hand-off request runs. */
  channelSending: string;
  /** Sent as the message text when the user sends an image without text (the service requires text). */
  imageMessage: string;
  /** An attached file is not PNG, JPEG, GIF or WebP. */
  attachmentTypeError: (name: string) => string;
  /** An attached file is larger than the limit. */
  attachmentSizeError: (name: string, maxMegabytes: number) => string;
  uploadingImage: string;
  /** The host's upload function failed; `details` is its own message, when it gave one. */
  uploadFailed: (details?: string) => string;
  /** The upload returned an address that is not an http(s) URL. */
  uploadInvalidUrl: string;
  /** Shown while an image is dragged over the chat. */
  dropImage: string;
  /** Screen-reader announcement of a complete message. */
  announce: (sender: string, text: string) => string;
  /** Announced after a reply that came with suggestion chips: how many there are. */
  suggestionsAvailable: (count: number) => string;
  /** Announced after a reply that came with product cards, before its suggestions: how many cards. */
  productsShown: (count: number) => string;
  errorOffline: string;
  errorNetwork: string;
  errorAuth: string;
  /** `details` is the service's own explanation, when it sent one. */
  errorValidation: (details?: string) => string;
  errorServer: string;
  /** `seconds` is the server's Retry-After, when known. */
  errorRateLimited: (seconds?: number) => string;
  errorTimeout: string;
  errorStreamInterrupted: string;
  /** The agent's model is busy (`agents.model_rate_limited`); `seconds` is the service's Retry-After, when known. */
  errorModelBusy: (seconds?: number) => string;
  /** The agent's model cannot be reached (`agents.model_unavailable`). */
  errorModelUnavailable: string;
  /** The agent's model refused or failed the reply (`agents.model_error`). */
  errorModelFailed: string;
  errorGeneric: string;
  /** A chunk of the widget's code could not be fetched or did not run; Retry asks again. */
  loadFailed: string;
  /** The stored conversation is gone from the service (404): the next message starts a new one. */
  threadGone: string;
  /** Another tab of the conversation sent at the same moment: this tab's message is back in its text field. */
  otherTab: string;
  /** A question sent before the page changed never reached the service: back in the composer. */
  unsent: string;
  errorConfiguration: (details?: string) => string;
  /** What a visitor reads when the widget is misconfigured (the details go to the developer). */
  chatUnavailable: string;
  /** Builder preview (attribute `preview`): the button under a reply and the heading of its trace. */
  trace: string;
  closeTrace: string;
  traceLoading: string;
  /** `details` is the service's own explanation, when it sent one. */
  traceFailed: (details?: string) => string;
  /** Under a trace whose later steps the service (or the widget) left out. */
  traceTruncated: string;
  /** The button that offers the agent's versions for a rerun, and the group of them. */
  rerunVersion: string;
  /** A version in that group, when it is the one messaging runs on. */
  versionLive: (tag: string) => string;
  /** The header's title of a thread that has none. */
  untitledThread: string;
  renameThread: string;
  /** The rename form's buttons (the turn editor's Save and Cancel are another chunk's). */
  saveTitle: string;
  cancelRename: string;
  /** Accessible name of the title's text field while renaming. */
  threadTitle: string;
  renameFailed: (details?: string) => string;
  /** Developer-facing: the token serves messaging only, so the preview is off. */
  previewNoManagement: string;
  /** Developer-facing: the service refused a management request (401/403), so the preview is off. */
  previewRefused: string;
}

/** A sentence with the service's detail after it, when there is one. */
export const withDetails = (text: string, details?: string) => (details ? `${text} ${details}` : text);

/**
 * The strings whose English comes with a lazy feature's chunk (src/<feature>/strings.ts),
 * by feature, added to the English table when the chunk arrives (src/i18n/index.ts
 * `addEnglish`): a page that never shows a feature does not download its texts. The other
 * languages' tables are chunks of their own and carry every key.
 */
export interface FeatureKeys {
  attachments:
    | 'attachImage'
    | 'removeAttachment'
    | 'attachmentTypeError'
    | 'attachmentSizeError'
    | 'uploadingImage'
    | 'uploadFailed'
    | 'uploadInvalidUrl'
    | 'dropImage';
  branches: 'regenerate' | 'edit' | 'save' | 'cancel' | 'previousVersion' | 'nextVersion' | 'versionPosition';
  cards: 'recommended' | 'unavailable' | 'cardsLabel' | 'previousCards' | 'nextCards' | 'cardLink' | 'yes' | 'no' | 'showMoreCards';
  copy: 'copyReply' | 'copyFailed';
  feedback:
    | 'feedbackLabel'
    | 'feedbackUp'
    | 'feedbackDown'
    | 'feedbackReasonTitle'
    | 'feedbackInaccurate'
    | 'feedbackUnhelpful'
    | 'feedbackUnsafe'
    | 'feedbackOther'
    | 'feedbackSend'
    | 'feedbackThanks';
  handoff:
    | 'channelButton'
    | 'channelPhoneLabel'
    | 'channelSubmit'
    | 'channelCancel'
    | 'channelDone'
    | 'channelBack'
    | 'channelGeneric'
    | 'channelChoice'
    | 'channelPhoneHint'
    | 'channelPhoneInvalid'
    | 'channelConsent'
    | 'channelFailed'
    | 'channelSending';
  disclaimer: 'disclaimerAccept' | 'disclaimerHint';
  export: 'exportConversation';
  history: 'removeConversation' | 'historyEmpty' | 'closeHistory' | 'untitledConversation';
  preview:
    | 'trace'
    | 'closeTrace'
    | 'traceLoading'
    | 'traceFailed'
    | 'traceTruncated'
    | 'rerunVersion'
    | 'versionLive'
    | 'untitledThread'
    | 'renameThread'
    | 'threadTitle'
    | 'renameFailed'
    | 'previewNoManagement'
    | 'previewRefused'
    | 'saveTitle'
    | 'cancelRename';
  reading: 'newMessages' | 'showEarlier';
  readAloud: 'readAloud' | 'readAloudStop';
  turns:
    | 'stopped'
    | 'interrupted'
    | 'reconnecting'
    | 'errorStreamInterrupted'
    | 'errorModelBusy'
    | 'errorModelUnavailable'
    | 'errorModelFailed'
    | 'otherTab'
    | 'unsent';
  voice: 'dictate' | 'dictateStop' | 'micDenied' | 'dictationFailed';
}

export type FeatureKey = FeatureKeys[keyof FeatureKeys];

/** The English the panel ships: every string but the features' own (`FeatureKey`). */
export const en: Omit<Strings, FeatureKey> = {
  ...enLauncher,
  heading: 'Chat',
  placeholder: 'Type a message…',
  inputLabel: 'Message',
  send: 'Send',
  stop: 'Stop',
  typing: 'Agent is typing…',
  newConversation: 'New conversation',
  jumpToLatest: 'Jump to latest',
  dismiss: 'Dismiss',
  queued: 'Waiting for connection…',
  replyTruncated: 'Too long to show in full',
  attachedImage: 'Attached image',
  copyCode: 'Copy',
  copied: 'Copied',
  tableLabel: 'Table',
  cardsUnavailable: 'The results could not be shown.',
  messageListLabel: 'Conversation',
  agentName: 'Agent',
  userName: 'You',
  welcomeLabel: 'Welcome message',
  suggestionsLabel: 'Suggested replies',
  history: 'Conversations',
  imageMessage: 'Image',
  announce: (sender, text) => `${sender}: ${text}`,
  suggestionsAvailable: (count) => (count === 1 ? '1 suggested reply' : `${count} suggested replies`),
  productsShown: (count) => (count === 1 ? '1 product' : `${count} products`),
  errorOffline: 'You are offline. The message will be sent when the connection is back.',
  errorNetwork: 'Could not reach the service. Check your connection and try again.',
  errorAuth: 'The chat could not sign in. Try again in a moment.',
  errorValidation: (details) => withDetails('The message could not be processed.', details),
  errorServer: 'The service had a problem. Please try again.',
  errorRateLimited: (seconds) => (seconds ? `Too many messages. Try again in ${seconds} s.` : 'Too many messages. Please wait a moment.'),
  errorTimeout: 'The reply took too long. Please try again.',
  errorGeneric: 'Something went wrong.',
  threadGone: 'That conversation is no longer available. Your next message starts a new one.',
  errorConfiguration: (details) => withDetails('The chat is not configured correctly.', details),
  chatUnavailable: 'Chat is unavailable right now.',
};
