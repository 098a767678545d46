/**
 * Files of agent project folders, read as untrusted input: regular files only, opened without
 * waiting (a FIFO would block until a writer comes) and checked before anything is read; at most
 * a given size (a link to `/dev/zero` is refused, never read); nothing whose real path (links
 * resolved) leaves the folder it belongs to; and no message quotes what a file holds.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { sep } from 'node:path';

/** A file over the size it may have. */
export class FileTooLarge extends Error {}

/** Whether `path`, its links resolved, lies inside `folder` (its links resolved too); false when it does not exist. */
export function liesWithin(path: string, folder: string): boolean {
  try {
    const real = realpathSync(path);
    const top = realpathSync(folder);
    return real === top || real.startsWith(top.endsWith(sep) ? top : top + sep);
  } catch {
    return false;
  }
}

/**
 * A regular file's text, at most `limit` bytes; with `within`, only when the file (its links
 * resolved) lies in that folder. A FIFO, a device (`/dev/zero`) or a link leading out of the
 * folder is refused before anything is read, so nothing of it can end up in a message.
 */
export function readRegularFile(path: string, limit: number, within?: string): string {
  if (within !== undefined && !liesWithin(path, within)) {
    realpathSync(path); // a link to nothing says so
    throw new Error(`it leads out of the folder ${within} (a link elsewhere); copy the file into the folder`);
  }
  // Opened without waiting (a FIFO would block until a writer comes), then checked.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error('it is not a regular file');
    if (stat.size > limit) throw new FileTooLarge(`it is larger than ${limit} bytes`);
    const buffer = Buffer.alloc(Math.min(stat.size, limit) + 1);
    let read = 0;
    for (let n; read < buffer.length && (n = readSync(fd, buffer, read, buffer.length - read, null)) > 0;)
      read += n;
    if (read > limit) throw new FileTooLarge(`it is larger than ${limit} bytes`);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * JSON text parsed. A syntax error says where (line and column, when the parser tells the
 * position), never what the text holds: the parser's own message quotes the text's first bytes.
 */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    // The parser's error is not kept as the cause: its message quotes the text.
    const position = /at position (\d+)/.exec(e instanceof Error ? e.message : '');
    const before = position ? text.slice(0, Number(position[1])) : undefined;
    const where =
      before === undefined
        ? ''
        : ` (line ${before.split('\n').length}, column ${before.length - before.lastIndexOf('\n')})`;
    // eslint-disable-next-line preserve-caught-error -- the cause would quote the file
    throw new Error(`it is not valid JSON${where}`);
  }
}
