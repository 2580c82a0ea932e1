import type { Strings } from '../strings.js';

// Local on purpose: importing it from strings.ts would split English into a shared chunk
// that every page then fetches separately.
const withDetails = (text: string, details?: string) => (details ? `${text} ${details}` : text);

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
  openChatUnread: 'فتح الدردشة، رسالة جديدة',
  jumpToLatest: 'الانتقال إلى أحدث رسالة',
  newMessages: (count) =>
    count === 1 ? 'رسالة جديدة واحدة' : count === 2 ? 'رسالتان جديدتان' : count <= 10 ? `${count} رسائل جديدة` : `${count} رسالة جديدة`,
  retry: 'إعادة المحاولة',
  dismiss: 'إغلاق',
  stopped: 'تم الإيقاف',
  interrupted: 'انقطع الرد',
  queued: 'في انتظار الاتصال…',
  replyTruncated: 'أطول من أن يُعرض كاملًا',
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
  copyReply: 'نسخ الرد',
  copyFailed: 'تعذّر النسخ',
  feedbackLabel: 'قيّم هذا الرد',
  feedbackUp: 'رد جيد',
  feedbackDown: 'رد سيئ',
  feedbackReasonTitle: 'ما الخطأ؟',
  feedbackInaccurate: 'غير دقيق',
  feedbackUnhelpful: 'غير مفيد',
  feedbackUnsafe: 'ضار أو مسيء',
  feedbackOther: 'أخبرنا بالمزيد (اختياري)',
  feedbackSend: 'إرسال',
  feedbackThanks: 'شكرًا على ملاحظاتك',
  dictate: 'إملاء',
  dictateStop: 'إيقاف الإملاء',
  micDenied: 'الميكروفون محظور. اسمح به في المتصفح للإملاء.',
  dictationFailed: 'توقف الإملاء: تعذّر التعرّف على الكلام.',
  readAloud: 'قراءة بصوت عالٍ',
  readAloudStop: 'إيقاف القراءة',
  tableLabel: 'جدول',
  cardsLabel: 'النتائج',
  previousCards: 'النتائج السابقة',
  nextCards: 'النتائج التالية',
  cardsUnavailable: 'تعذّر عرض النتائج.',
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
  exportConversation: 'حفظ المحادثة',
  disclaimerAccept: 'موافق',
  disclaimerHint: 'وافق على الإشعار أعلاه لإرسال رسالتك. رسالتك محفوظة.',
  removeConversation: 'إزالة المحادثة',
  save: 'حفظ',
  cancel: 'إلغاء',
  historyEmpty: 'لا توجد محادثات سابقة',
  closeHistory: 'إغلاق المحادثات',
  showEarlier: (count) => `عرض الرسائل السابقة (${count})`,
  showMoreCards: (count) => `عرض المزيد من النتائج (${count})`,
  untitledConversation: 'محادثة بلا عنوان',
  previousVersion: 'الإصدار السابق',
  nextVersion: 'الإصدار التالي',
  versionPosition: (current, total) => `الإصدار ${current} من ${total}`,
  channelButton: (channel) => `المتابعة عبر ${channel}`,
  channelPhoneLabel: 'رقم الهاتف',
  channelSubmit: 'متابعة',
  channelCancel: 'إلغاء',
  channelDone: (channel) => `تستمر المحادثة عبر ${channel}.`,
  channelBack: 'العودة إلى الدردشة',
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
  productsShown: arabicProducts,
  errorOffline: 'أنت غير متصل. سيتم إرسال الرسالة عند عودة الاتصال.',
  errorNetwork: 'تعذّر الوصول إلى الخدمة. تحقق من اتصالك وحاول مرة أخرى.',
  loadFailed: 'تعذّر تحميل جزء من الدردشة. تحقّق من اتصالك وحاول مرة أخرى.',
  errorAuth: 'تعذّر تسجيل دخول الدردشة. حاول مرة أخرى بعد قليل.',
  errorValidation: (details) => withDetails('تعذّرت معالجة الرسالة.', details),
  errorServer: 'حدثت مشكلة في الخدمة. يُرجى المحاولة مرة أخرى.',
  errorRateLimited: (seconds) =>
    seconds ? `رسائل كثيرة جدًا. حاول مرة أخرى بعد ${seconds} ثانية.` : 'رسائل كثيرة جدًا. يُرجى الانتظار قليلًا.',
  errorTimeout: 'استغرق الرد وقتًا طويلًا. يُرجى المحاولة مرة أخرى.',
  errorStreamInterrupted: 'انقطع الرد.',
  errorModelBusy: (seconds) =>
    seconds ? `المساعد مشغول حاليًا. حاول مرة أخرى بعد ${seconds} ثانية.` : 'المساعد مشغول حاليًا. يُرجى المحاولة مرة أخرى بعد قليل.',
  errorModelUnavailable: 'المساعد غير متاح حاليًا. يُرجى المحاولة لاحقًا.',
  errorModelFailed: 'تعذّر على المساعد الرد هذه المرة. يُرجى المحاولة مرة أخرى.',
  errorGeneric: 'حدث خطأ ما.',
  threadGone: 'لم تعد تلك المحادثة متاحة. ستبدأ رسالتك التالية محادثة جديدة.',
  otherTab: 'أرسلت علامة تبويب أخرى رسالة في اللحظة نفسها. رسالتك عادت إلى حقل النص.',
  unsent: 'لم تصل رسالتك إلى الخدمة قبل تغيّر الصفحة. عادت إلى حقل النص.',
  errorConfiguration: (details) => withDetails('لم يتم إعداد الدردشة بشكل صحيح.', details),
  chatUnavailable: 'الدردشة غير متاحة حاليًا.',
  trace: 'التتبع',
  closeTrace: 'إغلاق التتبع',
  traceLoading: 'جارٍ تحميل التتبع…',
  traceFailed: (details) => withDetails('تعذّر تحميل التتبع.', details),
  traceTruncated: 'سُجّلت خطوات أكثر مما يُعرض هنا.',
  rerunVersion: 'إعادة التشغيل بإصدار محدد',
  versionLive: (tag) => `${tag} (المنشور)`,
  untitledThread: 'بلا عنوان',
  renameThread: 'إعادة التسمية',
  saveTitle: 'حفظ',
  cancelRename: 'إلغاء',
  threadTitle: 'عنوان المحادثة',
  renameFailed: (details) => withDetails('تعذّر حفظ العنوان.', details),
  previewNoManagement:
    'المعاينة متوقفة: هذا الرمز للمراسلة فقط (لا يتضمن نطاقه scope كلمة "management"). سجّل الدخول كمنشئ لاستخدام المعاينة.',
  previewRefused: 'المعاينة متوقفة: رفضت الخدمة عمليات الإدارة بهذا الرمز.',
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

function arabicProducts(count: number): string {
  const rest = count % 100;
  if (count === 1) return 'منتج واحد';
  if (count === 2) return 'منتجان';
  if (rest >= 3 && rest <= 10) return `${count} منتجات`;
  if (rest >= 11) return `${count} منتجًا`;
  return `${count} منتج`;
}

export default ar;
