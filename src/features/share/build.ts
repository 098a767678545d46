/**
 * From what the app holds (thread records, transcripts, lineage, a bundle) to a shared document,
 * and back from a shared thread to the chat's turns. Pure: the only inputs are arguments.
 */
import type { Turn } from '../../domain/transcript/transcript';
import { ShareDocument, type SharedLineage, type SharedThread, type SharedTurn } from './document';
import { isLocalMessageId } from '../../domain/transcript/transcript';

export interface ThreadSource {
  id: string;
  record?:
    | {
        title?: string | undefined;
        agent_id?: string | undefined;
        welcome_message?: string | null | undefined;
        suggestions?: string[] | undefined;
        version_id?: string | undefined;
        version_tag?: string | undefined;
      }
    | undefined;
  turns: readonly Turn[];
}

export interface BuildInput {
  kind: 'snapshot' | 'export';
  focus: { task: string; turn?: string | undefined; node?: string | undefined };
  threads: readonly ThreadSource[];
  lineage?: readonly SharedLineage[];
  bundle?: { hash?: string | null; json: Record<string, unknown> } | undefined;
  now?: Date;
}

function sharedTurn(t: Turn): SharedTurn {
  return {
    id: t.id,
    user_text: t.userText,
    reply_text: t.replyText,
    suggestions: [...t.suggestions],
    decision: t.decision,
    ...(t.trace ? { trace: t.trace } : {}),
    ...(t.createdAt ? { created_at: t.createdAt } : {}),
    ...(t.rttMs !== undefined ? { rtt_ms: t.rttMs } : {}),
    ...(t.bundleHash !== undefined ? { bundle_hash: t.bundleHash } : {}),
    text_unavailable: t.textUnavailable,
  };
}

function sharedThread(s: ThreadSource): SharedThread {
  const r = s.record;
  return {
    id: s.id,
    title: r?.title ?? '',
    agent_id: r?.agent_id ?? '',
    ...(r?.welcome_message ? { welcome_message: r.welcome_message } : {}),
    suggestions: r?.suggestions ?? [],
    ...(r?.version_id ? { version_id: r.version_id } : {}),
    ...(r?.version_tag ? { version_tag: r.version_tag } : {}),
    // Turns this browser has not heard back about are not shared.
    turns: s.turns.filter((t) => !isLocalMessageId(t.id)).map(sharedTurn),
  };
}

export function buildShareDocument(input: BuildInput): ShareDocument {
  const ids = new Set(input.threads.map((t) => t.id));
  const doc = {
    format: 'threadline',
    version: 1,
    kind: input.kind,
    created_at: (input.now ?? new Date()).toISOString(),
    focus: {
      task: input.focus.task,
      ...(input.focus.turn ? { turn: input.focus.turn } : {}),
      ...(input.focus.node ? { node: input.focus.node } : {}),
    },
    threads: input.threads.map(sharedThread),
    // Only the lineage between threads that are in the document.
    lineage: (input.lineage ?? [])
      .filter((r) => ids.has(r.task_id) && ids.has(r.parent_task_id))
      .map((r) => ({ ...r })),
    ...(input.bundle ? { bundle: { hash: input.bundle.hash ?? null, json: input.bundle.json } } : {}),
    masked: [],
  };
  // Parse through the schema: what is shared is exactly what a reader accepts.
  return ShareDocument.parse(doc);
}

/** The chat's turns for a shared thread (the same shape the live chat renders). */
export function toChatTurns(thread: SharedThread): Turn[] {
  return thread.turns.map((t, index) => ({
    id: t.id,
    index,
    userText: t.user_text,
    replyText: t.reply_text,
    suggestions: t.suggestions,
    decision: t.decision || t.trace?.decision || '',
    ...(t.trace ? { trace: t.trace } : {}),
    ...(t.rtt_ms !== undefined ? { rttMs: t.rtt_ms } : {}),
    ...(t.created_at ? { createdAt: t.created_at } : {}),
    ...(t.bundle_hash !== undefined ? { bundleHash: t.bundle_hash } : {}),
    textUnavailable: t.text_unavailable,
  }));
}

/** What a document holds, in numbers, for the "what will be shared" summary. */
export function describeDocument(doc: ShareDocument): {
  threads: number;
  turns: number;
  traces: number;
  bundle: boolean;
} {
  const turns = doc.threads.flatMap((t) => t.turns);
  return {
    threads: doc.threads.length,
    turns: turns.length,
    traces: turns.filter((t) => t.trace).length,
    bundle: Boolean(doc.bundle),
  };
}

/** A file name from a title: lowercase words and dashes, never empty. */
export function fileSlug(title: string, fallback: string): string {
  const slug = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug || fallback.replace(/[^A-Za-z0-9_-]+/g, '').slice(0, 40) || 'thread';
}
