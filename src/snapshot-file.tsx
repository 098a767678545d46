/**
 * The one-file HTML snapshot's entry: the shared document embedded in the page (a JSON script
 * element) shown read-only, with the same view as a snapshot link. The build inlines this entry
 * and everything it reaches into the HTML file, so it opens from disk with nothing fetched.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { renderSnapshotInspector } from './app/SnapshotInspector';
import { KeyboardHost } from './features/command-palette';
import { EMBEDDED_DOCUMENT_ID, readEmbeddedDocument } from './features/share/one-file';
import { FeatureSlots } from './app/feature-slots';
import SnapshotView from './app/snapshot/SnapshotView';
import { applyTheme, followSystemTheme, readThemeChoice } from './lib/theme';
import './index.css';

applyTheme(readThemeChoice());
followSystemTheme(readThemeChoice);

function Unreadable({ message }: { message: string }) {
  return (
    <main className="flex h-dvh items-center justify-center bg-zinc-50 p-6 dark:bg-zinc-950">
      <div
        role="alert"
        className="max-w-lg rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
      >
        <p className="font-semibold">This snapshot cannot be opened</p>
        <p className="mt-1">{message}</p>
      </div>
    </main>
  );
}

const root = document.getElementById('root');
if (root) {
  const result = readEmbeddedDocument(document.getElementById(EMBEDDED_DOCUMENT_ID)?.textContent ?? '');
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={new QueryClient()}>
        {'error' in result ? (
          <Unreadable message={result.error} />
        ) : (
          <FeatureSlots>
            <SnapshotView doc={result.doc} renderInspector={renderSnapshotInspector} />
          </FeatureSlots>
        )}
        <KeyboardHost />
      </QueryClientProvider>
    </StrictMode>,
  );
}
