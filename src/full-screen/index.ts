/**
 * The full-screen, modal panel of a launcher on a small screen, a lazy chunk: fetched by
 * launchers only (feature.ts), with its stylesheet.
 */
export { FULL_SCREEN_QUERY, FullScreen, styles } from './full-screen.js';
