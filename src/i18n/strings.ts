/**
 * Every piece of text the widget shows or announces. Hosts override any of it through the
 * `strings` property (CONTRACT.md); parametrised strings are functions so word order can
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
  jumpToLatest: string;
  retry: string;
  /** Closes a notice. */
  dismiss: string;
  /** Under a reply the reader stopped. */
  stopped: string;
  /** Under a reply whose stream failed. */
  interrupted: string;
  /** Under a message written offline, until it is sent. */
  queued: string;
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
  /** Accessible name of the horizontally scrolling region around a table. */
  tableLabel: string;
  /** Accessible name of the list of cards in one message. */
  cardsLabel: string;
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
  removeConversation: string;
  save: string;
  cancel: string;
  historyEmpty: string;
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
  errorGeneric: string;
  errorConfiguration: (details?: string) => string;
}

const withDetails = (text: string, details?: string) => (details ? `${text} ${details}` : text);

export const en: Strings = {
  heading: 'Chat',
  placeholder: 'Type a message…',
  inputLabel: 'Message',
  send: 'Send',
  stop: 'Stop',
  typing: 'Agent is typing…',
  newConversation: 'New conversation',
  close: 'Close chat',
  openChat: 'Open chat',
  jumpToLatest: 'Jump to latest',
  retry: 'Retry',
  dismiss: 'Dismiss',
  stopped: 'Stopped',
  interrupted: 'Interrupted',
  queued: 'Waiting for connection…',
  unread: 'New message',
  regenerate: 'Regenerate',
  edit: 'Edit',
  attachImage: 'Attach image',
  removeAttachment: 'Remove attachment',
  attachedImage: 'Attached image',
  recommended: 'Recommended',
  unavailable: 'unavailable',
  copyCode: 'Copy',
  copied: 'Copied',
  tableLabel: 'Table',
  cardsLabel: 'Results',
  cardLink: 'View details',
  yes: 'Yes',
  no: 'No',
  reconnecting: 'Reconnecting…',
  messageListLabel: 'Conversation',
  agentName: 'Agent',
  userName: 'You',
  welcomeLabel: 'Welcome message',
  suggestionsLabel: 'Suggested replies',
  history: 'Conversations',
  removeConversation: 'Remove conversation',
  save: 'Save',
  cancel: 'Cancel',
  historyEmpty: 'No earlier conversations',
  untitledConversation: 'Untitled conversation',
  previousVersion: 'Previous version',
  nextVersion: 'Next version',
  versionPosition: (current, total) => `Version ${current} of ${total}`,
  channelButton: (channel) => `Continue on ${channel}`,
  channelPhoneLabel: 'Phone number',
  channelSubmit: 'Continue',
  channelCancel: 'Cancel',
  channelDone: (channel) => `The conversation continues on ${channel}.`,
  channelGeneric: 'Continue on your phone',
  channelChoice: 'Continue on',
  channelPhoneHint: 'With country code, e.g. +1 415 555 0123',
  channelPhoneInvalid: 'Enter the full number with its country code, starting with +.',
  channelConsent: (channel) => `By continuing you agree to receive messages from us on ${channel} at this number.`,
  channelFailed: 'The conversation could not be moved to your phone.',
  channelSending: 'Sending…',
  imageMessage: 'Image',
  attachmentTypeError: (name) => `“${name}” is not a supported image. Use PNG, JPEG, GIF or WebP.`,
  attachmentSizeError: (name, max) => `“${name}” is too large. Images can be up to ${max} MB.`,
  uploadingImage: 'Uploading image…',
  uploadFailed: (details) => withDetails('The image could not be uploaded.', details),
  uploadInvalidUrl: 'The image could not be uploaded: the upload returned an unusable address.',
  dropImage: 'Drop the image to attach it',
  announce: (sender, text) => `${sender}: ${text}`,
  suggestionsAvailable: (count) => (count === 1 ? '1 suggested reply' : `${count} suggested replies`),
  errorOffline: 'You are offline. The message will be sent when the connection is back.',
  errorNetwork: 'Could not reach the service. Check your connection and try again.',
  errorAuth: 'The chat could not sign in. Please reload the page.',
  errorValidation: (details) => withDetails('The message could not be processed.', details),
  errorServer: 'The service had a problem. Please try again.',
  errorRateLimited: (seconds) =>
    seconds ? `Too many messages. Try again in ${seconds} s.` : 'Too many messages. Please wait a moment.',
  errorTimeout: 'The reply took too long. Please try again.',
  errorStreamInterrupted: 'The reply was interrupted.',
  errorGeneric: 'Something went wrong.',
  errorConfiguration: (details) => withDetails('The chat is not configured correctly.', details),
};

export const de: Strings = {
  heading: 'Chat',
  placeholder: 'Nachricht eingeben…',
  inputLabel: 'Nachricht',
  send: 'Senden',
  stop: 'Stoppen',
  typing: 'Der Assistent schreibt…',
  newConversation: 'Neues Gespräch',
  close: 'Chat schließen',
  openChat: 'Chat öffnen',
  jumpToLatest: 'Zur neuesten Nachricht',
  retry: 'Erneut versuchen',
  dismiss: 'Ausblenden',
  stopped: 'Angehalten',
  interrupted: 'Unterbrochen',
  queued: 'Wartet auf Verbindung…',
  unread: 'Neue Nachricht',
  regenerate: 'Neu generieren',
  edit: 'Bearbeiten',
  attachImage: 'Bild anhängen',
  removeAttachment: 'Anhang entfernen',
  attachedImage: 'Angehängtes Bild',
  recommended: 'Empfohlen',
  unavailable: 'nicht verfügbar',
  copyCode: 'Kopieren',
  copied: 'Kopiert',
  tableLabel: 'Tabelle',
  cardsLabel: 'Ergebnisse',
  cardLink: 'Details ansehen',
  yes: 'Ja',
  no: 'Nein',
  reconnecting: 'Verbindung wird wiederhergestellt…',
  messageListLabel: 'Gespräch',
  agentName: 'Assistent',
  userName: 'Sie',
  welcomeLabel: 'Begrüßung',
  suggestionsLabel: 'Vorgeschlagene Antworten',
  history: 'Gespräche',
  removeConversation: 'Gespräch entfernen',
  save: 'Speichern',
  cancel: 'Abbrechen',
  historyEmpty: 'Keine früheren Gespräche',
  untitledConversation: 'Unbenanntes Gespräch',
  previousVersion: 'Vorherige Version',
  nextVersion: 'Nächste Version',
  versionPosition: (current, total) => `Version ${current} von ${total}`,
  channelButton: (channel) => `Auf ${channel} fortsetzen`,
  channelPhoneLabel: 'Telefonnummer',
  channelSubmit: 'Fortsetzen',
  channelCancel: 'Abbrechen',
  channelDone: (channel) => `Das Gespräch wird auf ${channel} fortgesetzt.`,
  channelGeneric: 'Auf dem Telefon fortsetzen',
  channelChoice: 'Fortsetzen über',
  channelPhoneHint: 'Mit Ländervorwahl, z. B. +49 151 12345678',
  channelPhoneInvalid: 'Geben Sie die vollständige Nummer mit Ländervorwahl ein, beginnend mit +.',
  channelConsent: (channel) => `Mit dem Fortfahren stimmen Sie zu, von uns Nachrichten über ${channel} an diese Nummer zu erhalten.`,
  channelFailed: 'Das Gespräch konnte nicht auf Ihr Telefon verlegt werden.',
  channelSending: 'Wird gesendet…',
  imageMessage: 'Bild',
  attachmentTypeError: (name) => `„${name}“ ist kein unterstütztes Bild. Verwenden Sie PNG, JPEG, GIF oder WebP.`,
  attachmentSizeError: (name, max) => `„${name}“ ist zu groß. Bilder dürfen höchstens ${max} MB groß sein.`,
  uploadingImage: 'Bild wird hochgeladen…',
  uploadFailed: (details) => withDetails('Das Bild konnte nicht hochgeladen werden.', details),
  uploadInvalidUrl: 'Das Bild konnte nicht hochgeladen werden: Der Upload lieferte eine unbrauchbare Adresse.',
  dropImage: 'Bild hier ablegen, um es anzuhängen',
  announce: (sender, text) => `${sender}: ${text}`,
  suggestionsAvailable: (count) => (count === 1 ? '1 vorgeschlagene Antwort' : `${count} vorgeschlagene Antworten`),
  errorOffline: 'Sie sind offline. Die Nachricht wird gesendet, sobald die Verbindung wieder steht.',
  errorNetwork: 'Der Dienst ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  errorAuth: 'Die Anmeldung des Chats ist fehlgeschlagen. Bitte laden Sie die Seite neu.',
  errorValidation: (details) => withDetails('Die Nachricht konnte nicht verarbeitet werden.', details),
  errorServer: 'Beim Dienst ist ein Fehler aufgetreten. Bitte versuchen Sie es erneut.',
  errorRateLimited: (seconds) =>
    seconds
      ? `Zu viele Nachrichten. Versuchen Sie es in ${seconds} s erneut.`
      : 'Zu viele Nachrichten. Bitte warten Sie einen Moment.',
  errorTimeout: 'Die Antwort hat zu lange gedauert. Bitte versuchen Sie es erneut.',
  errorStreamInterrupted: 'Die Antwort wurde unterbrochen.',
  errorGeneric: 'Etwas ist schiefgelaufen.',
  errorConfiguration: (details) => withDetails('Der Chat ist nicht richtig eingerichtet.', details),
};

export const fr: Strings = {
  heading: 'Chat',
  placeholder: 'Écrivez un message…',
  inputLabel: 'Message',
  send: 'Envoyer',
  stop: 'Arrêter',
  typing: 'L’assistant écrit…',
  newConversation: 'Nouvelle conversation',
  close: 'Fermer le chat',
  openChat: 'Ouvrir le chat',
  jumpToLatest: 'Aller au dernier message',
  retry: 'Réessayer',
  dismiss: 'Fermer',
  stopped: 'Arrêté',
  interrupted: 'Interrompu',
  queued: 'En attente de connexion…',
  unread: 'Nouveau message',
  regenerate: 'Régénérer',
  edit: 'Modifier',
  attachImage: 'Joindre une image',
  removeAttachment: 'Retirer la pièce jointe',
  attachedImage: 'Image jointe',
  recommended: 'Recommandé',
  unavailable: 'indisponible',
  copyCode: 'Copier',
  copied: 'Copié',
  tableLabel: 'Tableau',
  cardsLabel: 'Résultats',
  cardLink: 'Voir les détails',
  yes: 'Oui',
  no: 'Non',
  reconnecting: 'Reconnexion…',
  messageListLabel: 'Conversation',
  agentName: 'Assistant',
  userName: 'Vous',
  welcomeLabel: 'Message d’accueil',
  suggestionsLabel: 'Réponses suggérées',
  history: 'Conversations',
  removeConversation: 'Supprimer la conversation',
  save: 'Enregistrer',
  cancel: 'Annuler',
  historyEmpty: 'Aucune conversation précédente',
  untitledConversation: 'Conversation sans titre',
  previousVersion: 'Version précédente',
  nextVersion: 'Version suivante',
  versionPosition: (current, total) => `Version ${current} sur ${total}`,
  channelButton: (channel) => `Continuer sur ${channel}`,
  channelPhoneLabel: 'Numéro de téléphone',
  channelSubmit: 'Continuer',
  channelCancel: 'Annuler',
  channelDone: (channel) => `La conversation se poursuit sur ${channel}.`,
  channelGeneric: 'Continuer sur votre téléphone',
  channelChoice: 'Continuer sur',
  channelPhoneHint: 'Avec l’indicatif du pays, p. ex. +33 6 12 34 56 78',
  channelPhoneInvalid: 'Saisissez le numéro complet avec l’indicatif du pays, commençant par +.',
  channelConsent: (channel) => `En continuant, vous acceptez de recevoir nos messages sur ${channel} à ce numéro.`,
  channelFailed: 'La conversation n’a pas pu être transférée sur votre téléphone.',
  channelSending: 'Envoi…',
  imageMessage: 'Image',
  attachmentTypeError: (name) => `« ${name} » n’est pas une image prise en charge. Utilisez PNG, JPEG, GIF ou WebP.`,
  attachmentSizeError: (name, max) => `« ${name} » est trop volumineux. Les images peuvent faire jusqu’à ${max} Mo.`,
  uploadingImage: 'Envoi de l’image…',
  uploadFailed: (details) => withDetails('L’image n’a pas pu être envoyée.', details),
  uploadInvalidUrl: 'L’image n’a pas pu être envoyée : l’envoi a renvoyé une adresse inutilisable.',
  dropImage: 'Déposez l’image pour la joindre',
  announce: (sender, text) => `${sender} : ${text}`,
  suggestionsAvailable: (count) => (count === 1 ? '1 réponse suggérée' : `${count} réponses suggérées`),
  errorOffline: 'Vous êtes hors ligne. Le message sera envoyé dès le retour de la connexion.',
  errorNetwork: 'Impossible de joindre le service. Vérifiez votre connexion et réessayez.',
  errorAuth: 'La connexion du chat a échoué. Veuillez recharger la page.',
  errorValidation: (details) => withDetails('Le message n’a pas pu être traité.', details),
  errorServer: 'Le service a rencontré un problème. Veuillez réessayer.',
  errorRateLimited: (seconds) =>
    seconds
      ? `Trop de messages. Réessayez dans ${seconds} s.`
      : 'Trop de messages. Veuillez patienter un instant.',
  errorTimeout: 'La réponse a pris trop de temps. Veuillez réessayer.',
  errorStreamInterrupted: 'La réponse a été interrompue.',
  errorGeneric: 'Une erreur s’est produite.',
  errorConfiguration: (details) => withDetails('Le chat n’est pas configuré correctement.', details),
};

export const es: Strings = {
  heading: 'Chat',
  placeholder: 'Escribe un mensaje…',
  inputLabel: 'Mensaje',
  send: 'Enviar',
  stop: 'Detener',
  typing: 'El asistente está escribiendo…',
  newConversation: 'Nueva conversación',
  close: 'Cerrar chat',
  openChat: 'Abrir chat',
  jumpToLatest: 'Ir al último mensaje',
  retry: 'Reintentar',
  dismiss: 'Descartar',
  stopped: 'Detenido',
  interrupted: 'Interrumpido',
  queued: 'Esperando conexión…',
  unread: 'Mensaje nuevo',
  regenerate: 'Regenerar',
  edit: 'Editar',
  attachImage: 'Adjuntar imagen',
  removeAttachment: 'Quitar adjunto',
  attachedImage: 'Imagen adjunta',
  recommended: 'Recomendado',
  unavailable: 'no disponible',
  copyCode: 'Copiar',
  copied: 'Copiado',
  tableLabel: 'Tabla',
  cardsLabel: 'Resultados',
  cardLink: 'Ver detalles',
  yes: 'Sí',
  no: 'No',
  reconnecting: 'Reconectando…',
  messageListLabel: 'Conversación',
  agentName: 'Asistente',
  userName: 'Tú',
  welcomeLabel: 'Mensaje de bienvenida',
  suggestionsLabel: 'Respuestas sugeridas',
  history: 'Conversaciones',
  removeConversation: 'Eliminar conversación',
  save: 'Guardar',
  cancel: 'Cancelar',
  historyEmpty: 'No hay conversaciones anteriores',
  untitledConversation: 'Conversación sin título',
  previousVersion: 'Versión anterior',
  nextVersion: 'Versión siguiente',
  versionPosition: (current, total) => `Versión ${current} de ${total}`,
  channelButton: (channel) => `Continuar en ${channel}`,
  channelPhoneLabel: 'Número de teléfono',
  channelSubmit: 'Continuar',
  channelCancel: 'Cancelar',
  channelDone: (channel) => `La conversación continúa en ${channel}.`,
  channelGeneric: 'Continuar en tu teléfono',
  channelChoice: 'Continuar en',
  channelPhoneHint: 'Con el prefijo del país, p. ej. +34 612 34 56 78',
  channelPhoneInvalid: 'Introduce el número completo con el prefijo del país, empezando por +.',
  channelConsent: (channel) => `Al continuar, aceptas recibir nuestros mensajes por ${channel} en este número.`,
  channelFailed: 'No se pudo pasar la conversación a tu teléfono.',
  channelSending: 'Enviando…',
  imageMessage: 'Imagen',
  attachmentTypeError: (name) => `«${name}» no es una imagen compatible. Usa PNG, JPEG, GIF o WebP.`,
  attachmentSizeError: (name, max) => `«${name}» es demasiado grande. Las imágenes pueden tener hasta ${max} MB.`,
  uploadingImage: 'Subiendo imagen…',
  uploadFailed: (details) => withDetails('No se pudo subir la imagen.', details),
  uploadInvalidUrl: 'No se pudo subir la imagen: la subida devolvió una dirección no válida.',
  dropImage: 'Suelta la imagen para adjuntarla',
  announce: (sender, text) => `${sender}: ${text}`,
  suggestionsAvailable: (count) => (count === 1 ? '1 respuesta sugerida' : `${count} respuestas sugeridas`),
  errorOffline: 'No tienes conexión. El mensaje se enviará cuando vuelva la conexión.',
  errorNetwork: 'No se pudo contactar con el servicio. Comprueba tu conexión e inténtalo de nuevo.',
  errorAuth: 'El chat no pudo iniciar sesión. Vuelve a cargar la página.',
  errorValidation: (details) => withDetails('No se pudo procesar el mensaje.', details),
  errorServer: 'El servicio tuvo un problema. Inténtalo de nuevo.',
  errorRateLimited: (seconds) =>
    seconds
      ? `Demasiados mensajes. Inténtalo de nuevo en ${seconds} s.`
      : 'Demasiados mensajes. Espera un momento.',
  errorTimeout: 'La respuesta tardó demasiado. Inténtalo de nuevo.',
  errorStreamInterrupted: 'La respuesta se interrumpió.',
  errorGeneric: 'Algo salió mal.',
  errorConfiguration: (details) => withDetails('El chat no está configurado correctamente.', details),
};

export const ja: Strings = {
  heading: 'チャット',
  placeholder: 'メッセージを入力…',
  inputLabel: 'メッセージ',
  send: '送信',
  stop: '停止',
  typing: 'アシスタントが入力中…',
  newConversation: '新しい会話',
  close: 'チャットを閉じる',
  openChat: 'チャットを開く',
  jumpToLatest: '最新のメッセージへ',
  retry: '再試行',
  dismiss: '閉じる',
  stopped: '停止しました',
  interrupted: '中断されました',
  queued: '接続を待っています…',
  unread: '新着メッセージ',
  regenerate: '再生成',
  edit: '編集',
  attachImage: '画像を添付',
  removeAttachment: '添付を削除',
  attachedImage: '添付画像',
  recommended: 'おすすめ',
  unavailable: '在庫なし',
  copyCode: 'コピー',
  copied: 'コピーしました',
  tableLabel: '表',
  cardsLabel: '結果',
  cardLink: '詳細を見る',
  yes: 'はい',
  no: 'いいえ',
  reconnecting: '再接続中…',
  messageListLabel: '会話',
  agentName: 'アシスタント',
  userName: 'あなた',
  welcomeLabel: 'ウェルカムメッセージ',
  suggestionsLabel: '返信の候補',
  history: '会話履歴',
  removeConversation: '会話を削除',
  save: '保存',
  cancel: 'キャンセル',
  historyEmpty: '以前の会話はありません',
  untitledConversation: '無題の会話',
  previousVersion: '前のバージョン',
  nextVersion: '次のバージョン',
  versionPosition: (current, total) => `バージョン ${current} / ${total}`,
  channelButton: (channel) => `${channel}で続ける`,
  channelPhoneLabel: '電話番号',
  channelSubmit: '続ける',
  channelCancel: 'キャンセル',
  channelDone: (channel) => `会話は${channel}で続きます。`,
  channelGeneric: 'スマートフォンで続ける',
  channelChoice: '続ける方法',
  channelPhoneHint: '国番号から入力（例: +81 90 1234 5678）',
  channelPhoneInvalid: '+ で始まる国番号付きの電話番号を入力してください。',
  channelConsent: (channel) => `続行すると、この番号で${channel}のメッセージを受け取ることに同意したことになります。`,
  channelFailed: '会話をスマートフォンに移せませんでした。',
  channelSending: '送信中…',
  imageMessage: '画像',
  attachmentTypeError: (name) => `「${name}」は対応していない画像です。PNG、JPEG、GIF、WebP を使ってください。`,
  attachmentSizeError: (name, max) => `「${name}」は大きすぎます。画像は ${max} MB までです。`,
  uploadingImage: '画像をアップロード中…',
  uploadFailed: (details) => withDetails('画像をアップロードできませんでした。', details),
  uploadInvalidUrl: '画像をアップロードできませんでした: 使用できないアドレスが返されました。',
  dropImage: 'ここに画像をドロップして添付',
  announce: (sender, text) => `${sender}：${text}`,
  suggestionsAvailable: (count) => `返信の候補が${count}件あります`,
  errorOffline: 'オフラインです。接続が回復するとメッセージが送信されます。',
  errorNetwork: 'サービスに接続できません。接続を確認して、もう一度お試しください。',
  errorAuth: 'チャットにサインインできませんでした。ページを再読み込みしてください。',
  errorValidation: (details) => withDetails('メッセージを処理できませんでした。', details),
  errorServer: 'サービスで問題が発生しました。もう一度お試しください。',
  errorRateLimited: (seconds) =>
    seconds
      ? `メッセージが多すぎます。${seconds}秒後にもう一度お試しください。`
      : 'メッセージが多すぎます。しばらくお待ちください。',
  errorTimeout: '応答に時間がかかりすぎました。もう一度お試しください。',
  errorStreamInterrupted: '応答が中断されました。',
  errorGeneric: '問題が発生しました。',
  errorConfiguration: (details) => withDetails('チャットが正しく設定されていません。', details),
};

/** Arabic counts agree with the noun in four forms (one, two, 3-10, 11-99) besides 100s. */
function arabicSuggestions(count: number): string {
  const rest = count % 100;
  if (count === 1) return 'رد مقترح واحد';
  if (count === 2) return 'ردّان مقترحان';
  if (rest >= 3 && rest <= 10) return `${count} ردود مقترحة`;
  if (rest >= 11) return `${count} ردًا مقترحًا`;
  return `${count} رد مقترح`;
}

export const ar: Strings = {
  heading: 'الدردشة',
  placeholder: 'اكتب رسالة…',
  inputLabel: 'الرسالة',
  send: 'إرسال',
  stop: 'إيقاف',
  typing: 'المساعد يكتب…',
  newConversation: 'محادثة جديدة',
  close: 'إغلاق الدردشة',
  openChat: 'فتح الدردشة',
  jumpToLatest: 'الانتقال إلى أحدث رسالة',
  retry: 'إعادة المحاولة',
  dismiss: 'إغلاق',
  stopped: 'تم الإيقاف',
  interrupted: 'انقطع الرد',
  queued: 'في انتظار الاتصال…',
  unread: 'رسالة جديدة',
  regenerate: 'إعادة الإنشاء',
  edit: 'تعديل',
  attachImage: 'إرفاق صورة',
  removeAttachment: 'إزالة المرفق',
  attachedImage: 'صورة مرفقة',
  recommended: 'موصى به',
  unavailable: 'غير متوفر',
  copyCode: 'نسخ',
  copied: 'تم النسخ',
  tableLabel: 'جدول',
  cardsLabel: 'النتائج',
  cardLink: 'عرض التفاصيل',
  yes: 'نعم',
  no: 'لا',
  reconnecting: 'جارٍ إعادة الاتصال…',
  messageListLabel: 'المحادثة',
  agentName: 'المساعد',
  userName: 'أنت',
  welcomeLabel: 'رسالة الترحيب',
  suggestionsLabel: 'ردود مقترحة',
  history: 'المحادثات',
  removeConversation: 'إزالة المحادثة',
  save: 'حفظ',
  cancel: 'إلغاء',
  historyEmpty: 'لا توجد محادثات سابقة',
  untitledConversation: 'محادثة بلا عنوان',
  previousVersion: 'الإصدار السابق',
  nextVersion: 'الإصدار التالي',
  versionPosition: (current, total) => `الإصدار ${current} من ${total}`,
  channelButton: (channel) => `المتابعة عبر ${channel}`,
  channelPhoneLabel: 'رقم الهاتف',
  channelSubmit: 'متابعة',
  channelCancel: 'إلغاء',
  channelDone: (channel) => `تستمر المحادثة عبر ${channel}.`,
  channelGeneric: 'المتابعة على هاتفك',
  channelChoice: 'المتابعة عبر',
  channelPhoneHint: 'مع رمز الدولة، مثل ‎+966 50 123 4567',
  channelPhoneInvalid: 'أدخل الرقم كاملًا مع رمز الدولة، بدءًا بعلامة +.',
  channelConsent: (channel) => `بالمتابعة، توافق على تلقي رسائل منا عبر ${channel} على هذا الرقم.`,
  channelFailed: 'تعذّر نقل المحادثة إلى هاتفك.',
  channelSending: 'جارٍ الإرسال…',
  imageMessage: 'صورة',
  attachmentTypeError: (name) => `«${name}» ليست صورة مدعومة. استخدم PNG أو JPEG أو GIF أو WebP.`,
  attachmentSizeError: (name, max) => `«${name}» كبيرة جدًا. الحد الأقصى لحجم الصور ${max} ميغابايت.`,
  uploadingImage: 'جارٍ رفع الصورة…',
  uploadFailed: (details) => withDetails('تعذّر رفع الصورة.', details),
  uploadInvalidUrl: 'تعذّر رفع الصورة: أعاد الرفع عنوانًا غير صالح.',
  dropImage: 'أفلت الصورة لإرفاقها',
  announce: (sender, text) => `${sender}: ${text}`,
  suggestionsAvailable: arabicSuggestions,
  errorOffline: 'أنت غير متصل. سيتم إرسال الرسالة عند عودة الاتصال.',
  errorNetwork: 'تعذّر الوصول إلى الخدمة. تحقق من اتصالك وحاول مرة أخرى.',
  errorAuth: 'تعذّر تسجيل دخول الدردشة. يُرجى إعادة تحميل الصفحة.',
  errorValidation: (details) => withDetails('تعذّرت معالجة الرسالة.', details),
  errorServer: 'حدثت مشكلة في الخدمة. يُرجى المحاولة مرة أخرى.',
  errorRateLimited: (seconds) =>
    seconds
      ? `رسائل كثيرة جدًا. حاول مرة أخرى بعد ${seconds} ثانية.`
      : 'رسائل كثيرة جدًا. يُرجى الانتظار قليلًا.',
  errorTimeout: 'استغرق الرد وقتًا طويلًا. يُرجى المحاولة مرة أخرى.',
  errorStreamInterrupted: 'انقطع الرد.',
  errorGeneric: 'حدث خطأ ما.',
  errorConfiguration: (details) => withDetails('لم يتم إعداد الدردشة بشكل صحيح.', details),
};
