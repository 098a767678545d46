/**
 * Reading what the user picked (a folder through `<input webkitdirectory>`, files through a file
 * input) or dropped (files, or a folder: its entries are walked) into paths and texts for
 * `importFiles`. Browser I/O only; the decisions are in import-files.ts.
 */
import type { PickedFile } from './import-files';

const MAX_FILES = 500;

export async function readFileList(list: FileList | readonly File[]): Promise<PickedFile[]> {
  const files = Array.from(list).slice(0, MAX_FILES);
  return Promise.all(
    files.map(async (f) => ({ path: f.webkitRelativePath || f.name, text: await f.text() })),
  );
}

function entryFile(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

async function walk(entry: FileSystemEntry, prefix: string, out: PickedFile[]): Promise<void> {
  if (out.length >= MAX_FILES) return;
  if (entry.isFile) {
    const file = await entryFile(entry as FileSystemFileEntry);
    out.push({ path: `${prefix}${entry.name}`, text: await file.text() });
    return;
  }
  if (entry.isDirectory) {
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    // readEntries answers in batches until it answers an empty one.
    for (;;) {
      const batch = await readEntries(reader);
      if (batch.length === 0) break;
      for (const child of batch) await walk(child, `${prefix}${entry.name}/`, out);
    }
  }
}

/** Files of a drop; dropped folders are walked (their name becomes the first path segment). */
export async function readDataTransfer(dt: DataTransfer): Promise<PickedFile[]> {
  const entries = Array.from(dt.items)
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry?.() ?? null);
  if (entries.length > 0 && entries.every((e) => e !== null)) {
    const out: PickedFile[] = [];
    for (const entry of entries) await walk(entry, '', out);
    return out;
  }
  return readFileList(dt.files);
}
