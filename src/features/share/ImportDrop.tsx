/**
 * Importing a shared document: a hidden file picker (opened by "Import…") and a drop target on
 * the whole window (a window listener: an outside system). Drops handled by something else,
 * such as the bundle editor, are left alone. What opens is read-only.
 */
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/Button';
import { parseShareDocument, ShareDocumentError } from './document';
import { useShareStore } from './share-store';

export async function importFile(file: File): Promise<void> {
  const { openDocument, setImportError } = useShareStore.getState();
  try {
    const text = await file.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ShareDocumentError(
        `${file.name} is not JSON: Threadline imports the .json files it exports.`,
      );
    }
    openDocument(parseShareDocument(json));
  } catch (e) {
    setImportError(e instanceof Error ? e.message : String(e));
  }
}

let pickerInput: HTMLInputElement | null = null;

/** Opens the file picker (for buttons and the palette). */
export function pickImportFile(): void {
  pickerInput?.click();
}

function hasFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer?.types ?? []).includes('Files');
}

export function ImportDrop() {
  const ref = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const error = useShareStore((s) => s.importError);
  const setImportError = useShareStore((s) => s.setImportError);

  useEffect(() => {
    pickerInput = ref.current;
    return () => {
      pickerInput = null;
    };
  }, []);

  useEffect(() => {
    let depth = 0;
    const onEnter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth += 1;
      setDragging(true);
    };
    const onLeave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const onOver = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const onDrop = (e: DragEvent) => {
      depth = 0;
      setDragging(false);
      if (e.defaultPrevented || !hasFiles(e)) return;
      e.preventDefault();
      const file = e.dataTransfer?.files[0];
      if (file) void importFile(file);
    };
    window.addEventListener('dragenter', onEnter);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('dragover', onOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragenter', onEnter);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('drop', onDrop);
    };
  }, []);

  return (
    <>
      <input
        ref={ref}
        type="file"
        accept=".json,application/json"
        aria-label="Import a Threadline file"
        className="hidden"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void importFile(file);
        }}
      />
      {dragging ? (
        <div
          aria-hidden
          className="pointer-events-none fixed inset-0 z-50 flex items-center justify-center bg-indigo-500/10 outline-4 -outline-offset-8 outline-indigo-500 outline-dashed"
        >
          <p className="rounded-md bg-white px-4 py-2 text-sm shadow dark:bg-zinc-900">
            Drop a Threadline export to open it read-only
          </p>
        </div>
      ) : null}
      {error ? (
        <div
          role="alert"
          className="fixed right-4 bottom-4 z-50 flex max-w-md items-start gap-3 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 shadow-lg dark:border-red-800 dark:bg-red-950 dark:text-red-100"
        >
          <p>
            <strong>Import failed.</strong> {error}
          </p>
          <Button size="sm" variant="ghost" onClick={() => setImportError(null)}>
            Dismiss
          </Button>
        </div>
      ) : null}
    </>
  );
}
