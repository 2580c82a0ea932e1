/**
 * The whole English table, as the widget has it once every feature's chunk has arrived:
 * the panel's `en` and each feature's own texts (src/<feature>/strings.ts, added by
 * `addEnglish` when the chunk arrives). Importing this adds them all, as if every feature
 * had been used on the page.
 */
import { addEnglish, type Strings } from '../../src/i18n/index.js';
import { en } from '../../src/i18n/strings.js';
import { strings as attachments } from '../../src/attachments/strings.js';
import { strings as branches } from '../../src/branches/strings.js';
import { strings as cards } from '../../src/cards/strings.js';
import { strings as copy } from '../../src/copy/strings.js';
import { strings as disclaimer } from '../../src/disclaimer/strings.js';
import { strings as exporting } from '../../src/export/strings.js';
import { strings as feedback } from '../../src/feedback/strings.js';
import { strings as handoff } from '../../src/handoff/strings.js';
import { strings as history } from '../../src/history/strings.js';
import { strings as readAloud } from '../../src/read-aloud/strings.js';
import { strings as preview } from '../../src/preview/strings.js';
import { strings as voice } from '../../src/voice/strings.js';
import { strings as turns } from '../../src/state/turn-strings.js';
import { strings as reading } from '../../src/log/reading.js';

export const features = {
  attachments,
  branches,
  cards,
  copy,
  disclaimer,
  exporting,
  feedback,
  handoff,
  history,
  preview,
  readAloud,
  voice,
  turns,
  reading,
};
export const english: Strings = {
  ...en,
  ...attachments,
  ...branches,
  ...cards,
  ...copy,
  ...disclaimer,
  ...exporting,
  ...feedback,
  ...handoff,
  ...history,
  ...readAloud,
  ...preview,
  ...voice,
  ...turns,
  ...reading,
};
for (const strings of Object.values(features)) addEnglish(strings);
