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
  /** Screen-reader announcement of a complete message. */
  announce: (sender: string, text: string) => string;
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
  announce: (sender, text) => `${sender}: ${text}`,
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
  announce: (sender, text) => `${sender}: ${text}`,
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
  announce: (sender, text) => `${sender} : ${text}`,
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
  announce: (sender, text) => `${sender}: ${text}`,
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
  announce: (sender, text) => `${sender}：${text}`,
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
  announce: (sender, text) => `${sender}: ${text}`,
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
