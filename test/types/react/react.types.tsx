// React 19: the JSX usage of ../shared/jsx-usage.tsx against React's declarations.
import type {} from 'agent-chat/jsx/react';
