import type { FeatureKeys, Strings } from '../i18n/strings.js';

/** The English of what only a turn can say (the other languages' tables carry these too): added when the turns' chunk arrives. */
export const strings: Pick<Strings, FeatureKeys['turns']> = {
  otherTab: 'Another tab sent a message at the same moment. Yours is back in the text field.',
};
