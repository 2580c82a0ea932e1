// Preact: the JSX usage of ../shared/jsx-usage.tsx against Preact's declarations.
import type {} from 'agent-chat/jsx/preact';
