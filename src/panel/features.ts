/**
 * The registry: every feature the panel composes, one line each (docs/architecture.md
 * "Where a change goes"). A feature's folder says the rest in its `feature.ts`: its chunk,
 * the setting that turns it on, when it is needed, whether a render waits for it, and
 * where it renders. Within a place (src/panel/spec.ts `Places`) features render in this
 * order. scripts/check-layout.ts reads the folders from here.
 */
import { feature as copy } from '../copy/feature.js';
import { feature as readAloud } from '../read-aloud/feature.js';
import { feature as feedback } from '../feedback/feature.js';
import { feature as branches } from '../branches/feature.js';
import { feature as preview } from '../preview/feature.js';
import { feature as handoff } from '../handoff/feature.js';
import { feature as exporter } from '../export/feature.js';
import { feature as disclaimer } from '../disclaimer/feature.js';
import { feature as cards } from '../cards/feature.js';
import { feature as history } from '../history/feature.js';
import { feature as fullScreen } from '../full-screen/feature.js';
import { feature as attachments } from '../attachments/feature.js';
import { feature as voice } from '../voice/feature.js';

export const FEATURES = {
  copy,
  readAloud,
  feedback,
  branches,
  preview,
  handoff,
  exporter,
  disclaimer,
  cards,
  history,
  fullScreen,
  attachments,
  voice,
};
