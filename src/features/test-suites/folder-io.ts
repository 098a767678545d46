/**
 * Writing a suite folder where the user chooses: the File System Access API where the browser has
 * it (one `*.case.json` per case in the picked folder), else a zip download holding the folder.
 * Browser I/O only; the files themselves come from suite-files.ts.
 */
import { suiteFiles, suiteZip } from './suite-files';
import type { SuiteEntry } from '../../domain/suites/suites-store';

interface DirectoryPicker {
  showDirectoryPicker?: (options?: {
    mode?: 'read' | 'readwrite';
    id?: string;
  }) => Promise<FileSystemDirectoryHandle>;
}

const suiteFolderName = (agentId: string) => `${agentId}-tests`;

function downloadBytes(name: string, bytes: Uint8Array, type: string): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Exports the suite; answers what was written, or null when the user cancelled the picker. */
export async function exportSuiteFolder(
  agentId: string,
  entries: readonly SuiteEntry[],
): Promise<string | null> {
  const picker = (window as unknown as DirectoryPicker).showDirectoryPicker;
  const count = `${entries.length} case file${entries.length === 1 ? '' : 's'}`;
  if (typeof picker === 'function') {
    let dir: FileSystemDirectoryHandle;
    try {
      dir = await picker.call(window, { mode: 'readwrite', id: 'threadline-tests' });
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') return null;
      throw e;
    }
    for (const f of suiteFiles(entries)) {
      const handle = await dir.getFileHandle(f.path, { create: true });
      const writable = await handle.createWritable();
      await writable.write(f.text);
      await writable.close();
    }
    return `Wrote ${count} to the folder ${dir.name}.`;
  }
  const folder = suiteFolderName(agentId);
  downloadBytes(`${folder}.zip`, suiteZip(entries, folder), 'application/zip');
  return `Downloaded ${folder}.zip (${count} in the folder ${folder}; this browser cannot write folders).`;
}
