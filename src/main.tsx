import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { applyTheme, followSystemTheme, readThemeChoice } from './lib/theme';
import './index.css';

applyTheme(readThemeChoice());
followSystemTheme(readThemeChoice);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
