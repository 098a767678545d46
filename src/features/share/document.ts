/**
 * The shared document: one versioned format for snapshot links and exported files. It holds
 * identifiers, texts and traces of one or more threads (a thread and its branches), their
 * lineage and optionally a bundle: never a key, never connection settings.
 *
 * Version 1. A reader refuses a newer version with words, not a crash; `parseShareDocument`
 * is the only way in.
 */
import { z } from 'zod';
import { TolerantTrace } from '../../contract/trace';

const SHARE_FORMAT = 'threadline';
const SHARE_VERSION = 1;

const Id = z.string().min(1).max(500);

export const SharedTurn = z.object({
  id: Id,
  user_text: z.string().default(''),
  reply_text: z.string().default(''),
  suggestions: z.array(z.string()).default([]),
  decision: z.string().default(''),
  trace: TolerantTrace.optional(),
  created_at: z.string().optional(),
  rtt_ms: z.number().nonnegative().optional(),
  bundle_hash: z.string().nullish(),
  /** The server keeps no texts and the sharer's browser did not send this turn. */
  text_unavailable: z.boolean().default(false),
});
export type SharedTurn = z.infer<typeof SharedTurn>;

export const SharedThread = z.object({
  id: Id,
  title: z.string().default(''),
  agent_id: z.string().default(''),
  welcome_message: z.string().nullish(),
  suggestions: z.array(z.string()).default([]),
  version_id: z.string().optional(),
  version_tag: z.string().optional(),
  turns: z.array(SharedTurn),
});
export type SharedThread = z.infer<typeof SharedThread>;

export const SharedLineage = z.object({
  task_id: Id,
  parent_task_id: Id,
  parent_interaction_id: z.string(),
  edited_text: z.string(),
  original_text: z.string(),
  bundle_hash: z.string().nullable(),
  version_id: z.string().nullable(),
  version_tag: z.string().nullable(),
  created_at: z.string(),
});
export type SharedLineage = z.infer<typeof SharedLineage>;

export const ShareDocument = z.object({
  format: z.literal(SHARE_FORMAT),
  version: z.literal(SHARE_VERSION),
  /** A snapshot link or an exported file: both open read-only. */
  kind: z.enum(['snapshot', 'export']),
  created_at: z.string(),
  /** The thread and view the sharer was looking at. */
  focus: z.object({ task: Id, turn: z.string().optional(), node: z.string().optional() }),
  threads: z.array(SharedThread).min(1),
  lineage: z.array(SharedLineage).default([]),
  bundle: z.object({ hash: z.string().nullish(), json: z.record(z.string(), z.unknown()) }).optional(),
  /** What was masked, by field label (never the values themselves). */
  masked: z.array(z.string()).default([]),
});
export type ShareDocument = z.infer<typeof ShareDocument>;
export type ShareDocumentInput = z.input<typeof ShareDocument>;

export class ShareDocumentError extends Error {
  override name = 'ShareDocumentError';
}

/** Validates anything (parsed JSON) as a shared document, with a reason in words when it is not. */
export function parseShareDocument(value: unknown): ShareDocument {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new ShareDocumentError('This is not a Threadline snapshot or export.');
  const v = value as Record<string, unknown>;
  if (v.format !== SHARE_FORMAT)
    throw new ShareDocumentError('This is not a Threadline snapshot or export (no "format": "threadline").');
  if (typeof v.version === 'number' && v.version > SHARE_VERSION) {
    throw new ShareDocumentError(
      `This was made by a newer Threadline (format version ${v.version}; this one reads version ${SHARE_VERSION}).`,
    );
  }
  const parsed = ShareDocument.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new ShareDocumentError(
      `This Threadline document is damaged: ${first ? `${first.path.join('.') || 'document'}: ${first.message}` : 'invalid'}.`,
    );
  }
  const doc = parsed.data;
  if (!doc.threads.some((t) => t.id === doc.focus.task)) {
    doc.focus = { task: doc.threads[0]!.id };
  }
  return doc;
}
