/**
 * Path data of the icons both halves draw: the launcher (the shell, built with DOM calls:
 * no template library before the panel loads) and the panel (lit-html templates).
 */
export const CHAT_PATH = 'M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z';
export const CLOSE_PATH = 'M6 6l12 12M18 6L6 18';
