/**
 * Storage faults in one place: an error from SQLite or the file system → what went wrong, in
 * words a user can act on. Used at start (a refusal to start, one line) and while running (an
 * HTTP answer that says what happened instead of a bare 500).
 */
export type StorageFault = 'full' | 'read-only' | 'locked' | 'corrupt' | 'unopenable' | 'io';

const SQLITE_FAULTS: Record<string, StorageFault> = {
  SQLITE_FULL: 'full',
  SQLITE_READONLY: 'read-only',
  SQLITE_BUSY: 'locked',
  SQLITE_LOCKED: 'locked',
  SQLITE_CORRUPT: 'corrupt',
  SQLITE_NOTADB: 'corrupt',
  SQLITE_CANTOPEN: 'unopenable',
  SQLITE_PERM: 'read-only',
  SQLITE_IOERR: 'io',
};

const ERRNO_FAULTS: Record<string, StorageFault> = {
  ENOSPC: 'full',
  EDQUOT: 'full',
  EROFS: 'read-only',
  EACCES: 'read-only',
  EPERM: 'read-only',
  ENOTDIR: 'unopenable',
  EIO: 'io',
};

/** The fault behind `error`, or `undefined` when it is not a storage fault. */
export function storageFault(error: unknown): StorageFault | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  // SQLite's extended codes (SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED, ...) share their base's meaning.
  const base = code.startsWith('SQLITE_') ? code.split('_').slice(0, 2).join('_') : code;
  return SQLITE_FAULTS[base] ?? ERRNO_FAULTS[code];
}

/** What happened to `file` and what to do, in one line (for refusing to start). */
export function describeAtStart(fault: StorageFault, file: string, folder: string): string {
  switch (fault) {
    case 'full':
      return `the disk holding ${file} is full: free some space, or start with another --data folder (THREADLINE_DATA)`;
    case 'read-only':
    case 'unopenable':
      return `cannot write to ${file}: the data folder ${folder} or the database in it is read-only or not accessible to this user; make it writable, or start with another --data folder (THREADLINE_DATA)`;
    case 'locked':
      return `another Threadline service is using the data folder ${folder} (${file} is locked): stop it, or start this one with another --data folder (THREADLINE_DATA)`;
    case 'corrupt':
      return `${file} is damaged or is not a Threadline database: move it away to start with an empty database (or restore a backup), or start with another --data folder (THREADLINE_DATA)`;
    case 'io':
      return `the disk failed while reading or writing ${file}: check the disk, or start with another --data folder (THREADLINE_DATA)`;
  }
}

/** The HTTP answer for a fault met while serving a request. */
export interface FaultAnswer {
  status: 500 | 503 | 507;
  error: string;
  message: string;
}

export function describeWhileServing(fault: StorageFault): FaultAnswer {
  switch (fault) {
    case 'full':
      return {
        status: 507,
        error: 'Insufficient Storage',
        message:
          'The disk holding the service’s database is full, so nothing was saved. Free some space; the service carries on by itself once there is room.',
      };
    case 'read-only':
    case 'unopenable':
      return {
        status: 503,
        error: 'Service Unavailable',
        message:
          'The service’s database has become read-only, so nothing was saved. Make its data folder writable again, then retry.',
      };
    case 'locked':
      return {
        status: 503,
        error: 'Service Unavailable',
        message:
          'The service’s database is locked by another process, so nothing was saved. Stop the other process, then retry.',
      };
    case 'corrupt':
      return {
        status: 500,
        error: 'Internal Server Error',
        message:
          'The service’s database is damaged. Stop the service and restore or move away its database (the log names the file).',
      };
    case 'io':
      return {
        status: 503,
        error: 'Service Unavailable',
        message:
          'The disk holding the service’s database failed to read or write. Check the disk, then retry.',
      };
  }
}
