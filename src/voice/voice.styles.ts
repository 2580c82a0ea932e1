import { css } from '@lit/reactive-element/css-tag.js';

/** The dictation button and its notice, adopted with the voice chunk. */
export const styles = css`
  .mic.listening {
    color: var(--_danger);
    background: color-mix(in srgb, var(--_danger) 12%, transparent);
  }

  @media (prefers-reduced-motion: no-preference) {
    .mic.listening svg {
      animation: agent-chat-listening 1.2s ease-in-out infinite;
    }
  }

  @keyframes agent-chat-listening {
    50% {
      opacity: 0.45;
    }
  }

  form[part='composer']:has(.voice-error) {
    flex-wrap: wrap;
  }

  .voice-error {
    flex-basis: 100%;
    order: 10;
    margin: 0;
    color: var(--_danger);
    font-size: 0.85em;
  }
`;
