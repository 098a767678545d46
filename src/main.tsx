import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { applyTheme, followSystemTheme, readThemeChoice } from './lib/theme';
import './index.css';

applyTheme(readThemeChoice());
followSystemTheme(readThemeChoice);

const root = document.getElementById('root');
if (root) {
  // The first render as a transition: React yields to the browser every few milliseconds, so the
  // first screen is drawn in short tasks instead of one long one.
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}
