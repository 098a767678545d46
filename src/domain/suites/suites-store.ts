/**
 * The conversation test suites kept in this browser: one suite per agent, an ordered list of
 * test cases, each with the file name it is exported under. A global store (the bundle editor's
 * impact preview and the suites panel both read it), persisted in IndexedDB so saved cases
 * survive a reload. Cases are stored as validated `TestCase` values; what comes back from storage
 * is validated again and anything that no longer parses is dropped rather than shown wrongly.
 *
 * Agent ids are user-chosen names: reads go through `Object.hasOwn`, so an agent called
 * `constructor` or `__proto__` is an agent like any other.
 */
import { useMemo } from 'react';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { idbPersistStorage } from '../../lib/idb-storage';
import { emptyRecord, ownRecord, ownValue, withEntry } from '../../lib/own-records';
import { validateTestCase, type TestCase } from '../../lib/test-cases';
import { caseFileName, uniqueFileName } from './file-names';

export interface SuiteEntry {
  /** Stable within this browser: results and selections refer to it; never exported. */
  id: string;
  /** The file name in an exported folder (`<slug>.case.json`), unique within the suite. */
  file: string;
  testCase: TestCase;
  /** When the case was saved or imported here (ISO-8601). */
  addedAt: string;
}

/** A case read from a folder: its file name and its validated content. */
export interface ImportedCase {
  file: string;
  testCase: TestCase;
}

export interface ImportOutcome {
  added: number;
  /** Cases whose file name was already in the suite: their content was replaced. */
  replaced: number;
}

type Suites = Record<string, readonly SuiteEntry[]>;

export interface SuitesState {
  suites: Suites;
  hydrated: boolean;
  /** Adds a case at the end of the agent's suite; returns its entry id. */
  addCase: (agentId: string, testCase: TestCase, file?: string) => string;
  /** Replaces a case's content (its id and file name stay). */
  replaceCase: (agentId: string, id: string, testCase: TestCase) => void;
  /** Renames a case: its `name`, and its file name to match. */
  renameCase: (agentId: string, id: string, name: string) => void;
  /** Removes a case; returns what was removed and where, for an undo. */
  removeCase: (agentId: string, id: string) => { entry: SuiteEntry; index: number } | null;
  /** Puts a removed case back where it was (the undo of `removeCase`). */
  restoreCase: (agentId: string, entry: SuiteEntry, index: number) => void;
  /** Adds the cases of a folder; a case whose file name is already in the suite replaces it. */
  importCases: (agentId: string, cases: readonly ImportedCase[]) => ImportOutcome;
}

const EMPTY: readonly SuiteEntry[] = Object.freeze([]);
const EMPTY_CASES: readonly TestCase[] = Object.freeze([]);

export function suiteOf(suites: Suites, agentId: string): readonly SuiteEntry[] {
  return ownValue(suites, agentId) ?? EMPTY;
}

const withSuite = (suites: Suites, agentId: string, entries: readonly SuiteEntry[]): Suites =>
  withEntry(suites, agentId, entries);

let counter = 0;
const newId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `case-${Date.now().toString(36)}-${(counter++).toString(36)}`;

const takenFiles = (entries: readonly SuiteEntry[], except?: string) =>
  new Set(entries.filter((e) => e.id !== except).map((e) => e.file));

/** Keeps only stored entries that still validate (storage is outside this code's control). */
function revive(value: unknown): Suites {
  const out = emptyRecord<readonly SuiteEntry[]>();
  for (const [agentId, entries] of Object.entries(ownRecord(value, Array.isArray))) {
    const kept: SuiteEntry[] = [];
    for (const e of entries as unknown as Partial<SuiteEntry>[]) {
      if (typeof e?.id !== 'string' || typeof e.file !== 'string') continue;
      const parsed = validateTestCase(e.testCase);
      if (!parsed.ok) continue;
      kept.push({ id: e.id, file: e.file, testCase: parsed.value, addedAt: String(e.addedAt ?? '') });
    }
    Object.defineProperty(out, agentId, {
      value: kept,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

export const useSuitesStore = create<SuitesState>()(
  persist(
    (setState, getState) => ({
      suites: emptyRecord<readonly SuiteEntry[]>(),
      hydrated: false,
      addCase: (agentId, testCase, file) => {
        const id = newId();
        setState((s) => {
          const entries = suiteOf(s.suites, agentId);
          const name = uniqueFileName(file ?? caseFileName(testCase.name), takenFiles(entries));
          const entry: SuiteEntry = { id, file: name, testCase, addedAt: new Date().toISOString() };
          return { suites: withSuite(s.suites, agentId, [...entries, entry]) };
        });
        return id;
      },
      replaceCase: (agentId, id, testCase) =>
        setState((s) => {
          const entries = suiteOf(s.suites, agentId);
          if (!entries.some((e) => e.id === id)) return s;
          return {
            suites: withSuite(
              s.suites,
              agentId,
              entries.map((e) => (e.id === id ? { ...e, testCase } : e)),
            ),
          };
        }),
      renameCase: (agentId, id, name) =>
        setState((s) => {
          const entries = suiteOf(s.suites, agentId);
          const trimmed = name.trim();
          if (!trimmed || !entries.some((e) => e.id === id)) return s;
          const file = uniqueFileName(caseFileName(trimmed), takenFiles(entries, id));
          return {
            suites: withSuite(
              s.suites,
              agentId,
              entries.map((e) =>
                e.id === id ? { ...e, file, testCase: { ...e.testCase, name: trimmed } } : e,
              ),
            ),
          };
        }),
      removeCase: (agentId, id) => {
        const entries = suiteOf(getState().suites, agentId);
        const index = entries.findIndex((e) => e.id === id);
        if (index < 0) return null;
        const entry = entries[index]!;
        setState((s) => ({
          suites: withSuite(
            s.suites,
            agentId,
            suiteOf(s.suites, agentId).filter((e) => e.id !== id),
          ),
        }));
        return { entry, index };
      },
      restoreCase: (agentId, entry, index) =>
        setState((s) => {
          const entries = suiteOf(s.suites, agentId);
          if (entries.some((e) => e.id === entry.id)) return s;
          const file = uniqueFileName(entry.file, takenFiles(entries));
          const next = [...entries];
          next.splice(Math.min(Math.max(0, index), next.length), 0, { ...entry, file });
          return { suites: withSuite(s.suites, agentId, next) };
        }),
      importCases: (agentId, cases) => {
        let added = 0;
        let replaced = 0;
        setState((s) => {
          const next = [...suiteOf(s.suites, agentId)];
          const byFile = new Map(next.map((e, i) => [e.file, i]));
          const now = new Date().toISOString();
          for (const c of cases) {
            const at = byFile.get(c.file);
            if (at !== undefined) {
              next[at] = { ...next[at]!, testCase: c.testCase, addedAt: now };
              replaced += 1;
            } else {
              byFile.set(c.file, next.length);
              next.push({ id: newId(), file: c.file, testCase: c.testCase, addedAt: now });
              added += 1;
            }
          }
          return { suites: withSuite(s.suites, agentId, next) };
        });
        return { added, replaced };
      },
    }),
    {
      name: 'threadline:test-suites',
      version: 1,
      storage: idbPersistStorage<Pick<SuitesState, 'suites'>>(),
      partialize: (s) => ({ suites: s.suites }),
      merge: (persisted, current) => ({
        ...current,
        suites: revive((persisted as { suites?: unknown } | null)?.suites),
      }),
      onRehydrateStorage: () => () => useSuitesStore.setState({ hydrated: true }),
    },
  ),
);
export const selectSuitesHydrated = (s: SuitesState) => s.hydrated;

/** The agent's suite entries (ids, file names and cases), in suite order. */
export function useSuiteEntries(agentId: string): readonly SuiteEntry[] {
  return useSuitesStore((s) => suiteOf(s.suites, agentId));
}

/** The agent's test cases, in suite order; the same array while the suite is unchanged. */
export function useSuiteCases(agentId: string): readonly TestCase[] {
  const entries = useSuiteEntries(agentId);
  return useMemo(() => (entries.length ? entries.map((e) => e.testCase) : EMPTY_CASES), [entries]);
}

/** Plain functions for code outside React (same actions as the store's). */
export const addCase = (agentId: string, testCase: TestCase, file?: string) =>
  useSuitesStore.getState().addCase(agentId, testCase, file);
export const replaceCase = (agentId: string, id: string, testCase: TestCase) =>
  useSuitesStore.getState().replaceCase(agentId, id, testCase);
export const removeCase = (agentId: string, id: string) => useSuitesStore.getState().removeCase(agentId, id);
export const importCases = (agentId: string, cases: readonly ImportedCase[]) =>
  useSuitesStore.getState().importCases(agentId, cases);
