/**
 * The panel chunk (docs/architecture.md "Shell and panel"): everything a reader sees once
 * the conversation shows. The shell fetches it, adopts `styles` into its shadow root and
 * renders the `Panel` into it.
 */
import { composerStyles } from '../composer/composer.styles.js';
import { logStyles } from '../log/log.styles.js';
import { markdownStyles } from '../markdown/markdown.styles.js';
import { suggestionsStyles } from '../suggestions/suggestions.styles.js';
import { panelStyles } from './panel.styles.js';

export { Panel } from './panel.js';
export const styles = [panelStyles, logStyles, markdownStyles, suggestionsStyles, composerStyles];
