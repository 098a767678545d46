import { describe, expect, it } from 'vitest';
import { deflateSync, strToU8 } from 'fflate';
import { bytesToBase64Url } from '../../lib/base64url';
import { buildShareDocument, describeDocument, fileSlug, toChatTurns } from './build';
import { buildSnapshotLink, decodeSnapshot, encodeSnapshot, SNAPSHOT_LINK_LIMIT } from './codec';
import { parseShareDocument, ShareDocumentError } from './document';
import { sampleDocument, turns } from './share-document.fixture';
import { buildTraceLink, serverMismatch, snapshotPayloadFromHash } from './links';
import { findLeaks, maskCandidates, maskDocument } from './mask';
import { transcriptMarkdown } from './markdown';

const SECRET = 'sk-live-0123456789abcdef';

describe('shared document', () => {
  it('is built from turns and turns back into the same chat turns', () => {
    const doc = sampleDocument();
    expect(doc.format).toBe('threadline');
    expect(doc.version).toBe(1);
    expect(toChatTurns(doc.threads[0]!)).toEqual(turns);
    expect(describeDocument(doc)).toEqual({ threads: 1, turns: 2, traces: 1, bundle: false });
  });

  it('leaves out turns still on their way and lineage to threads not included', () => {
    const doc = buildShareDocument({
      kind: 'export',
      focus: { task: 'a' },
      threads: [
        { id: 'a', turns: [...turns, { ...turns[0]!, id: 'local-1' }] },
        { id: 'b', turns: [] },
      ],
      lineage: [
        {
          task_id: 'b',
          parent_task_id: 'a',
          parent_interaction_id: 'msg-1',
          edited_text: 'x',
          original_text: 'hi',
          bundle_hash: null,
          version_id: null,
          version_tag: null,
          created_at: 't',
        },
        {
          task_id: 'c',
          parent_task_id: 'a',
          parent_interaction_id: 'msg-1',
          edited_text: 'y',
          original_text: 'hi',
          bundle_hash: null,
          version_id: null,
          version_tag: null,
          created_at: 't',
        },
      ],
    });
    expect(doc.threads[0]!.turns.map((t) => t.id)).toEqual(['msg-1', 'msg-2']);
    expect(doc.lineage.map((r) => r.task_id)).toEqual(['b']);
  });

  it('refuses what is not a document, a newer version and damage, in words', () => {
    expect(() => parseShareDocument([])).toThrow(ShareDocumentError);
    expect(() => parseShareDocument({ schema_version: 1 })).toThrow(/not a Threadline/);
    expect(() => parseShareDocument({ ...sampleDocument(), version: 2 })).toThrow(
      /newer Threadline \(format version 2/,
    );
    expect(() => parseShareDocument({ ...sampleDocument(), threads: [] })).toThrow(/damaged: threads/);
  });

  it('falls back to the first thread when the focus is not in the document', () => {
    const doc = parseShareDocument({ ...sampleDocument(), focus: { task: 'elsewhere' } });
    expect(doc.focus).toEqual({ task: 'task-1' });
  });

  it('keeps unknown trace fields (tolerant traces)', () => {
    const raw = JSON.parse(JSON.stringify(sampleDocument()));
    raw.threads[0].turns[1].trace.latency = { elapsed: 3, unit: 'ms' };
    raw.threads[0].turns[1].trace.future_field = { x: 1 };
    const doc = parseShareDocument(raw);
    expect(doc.threads[0]!.turns[1]!.trace).toMatchObject({ future_field: { x: 1 } });
  });
});

describe('snapshot codec', () => {
  it('round-trips through the URL fragment', () => {
    const doc = sampleDocument();
    const link = buildSnapshotLink('http://127.0.0.1:8787/app/?task=x&turn=y#old', doc);
    expect(link.ok).toBe(true);
    if (!link.ok) return;
    const url = new URL(link.url);
    expect(url.pathname).toBe('/app/');
    expect(url.search).toBe('');
    const payload = snapshotPayloadFromHash(url.hash)!;
    expect(payload).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeSnapshot(payload)).toEqual(doc);
  });

  it('refuses links over the limit and says how long they would be', () => {
    const doc = sampleDocument();
    const payload = encodeSnapshot(doc);
    const r = buildSnapshotLink('http://h/', doc, 100);
    expect(r).toEqual({ ok: false, length: payload.length + 'snapshot='.length, limit: 100 });
    expect(SNAPSHOT_LINK_LIMIT).toBe(32768);
  });

  it('says a cut or mangled link is damaged', () => {
    const payload = encodeSnapshot(sampleDocument());
    expect(() => decodeSnapshot(payload.slice(0, payload.length / 2))).toThrow(/damaged or incomplete/);
    expect(() => decodeSnapshot('%%%')).toThrow(/damaged/);
  });

  it('refuses to inflate a bomb', () => {
    const bomb = bytesToBase64Url(deflateSync(strToU8(' '.repeat(9 * 1024 * 1024))));
    expect(bomb.length).toBeLessThan(SNAPSHOT_LINK_LIMIT);
    expect(() => decodeSnapshot(bomb)).toThrow(/too large/);
  });

  it('validates what it decodes', () => {
    const fake = bytesToBase64Url(deflateSync(strToU8(JSON.stringify({ format: 'threadline', version: 1 }))));
    expect(() => decodeSnapshot(fake)).toThrow(/damaged/);
  });
});

describe('masking', () => {
  it('lists entity, tool parameter and extracted values with their fields', () => {
    const c = maskCandidates(sampleDocument());
    const byValue = Object.fromEntries(c.map((x) => [x.value, x]));
    expect(Object.keys(byValue).sort()).toEqual(['1250', '4242', 'Acme Widgets', 'Jane Q. Doe']);
    expect(byValue['4242']!.fields).toEqual(['entity card_last4', 'LOOKUP_CARD.card.last4']);
    expect(byValue['1250']!.fields).toEqual(['entity amount', 'parameter amount']);
    expect(byValue['Jane Q. Doe']!.name).toBe('holder');
  });

  it('replaces chosen values everywhere they appear, and nothing else', () => {
    const doc = sampleDocument();
    const chosen = maskCandidates(doc);
    const masked = maskDocument(doc, chosen);
    expect(
      findLeaks(
        masked,
        chosen.map((c) => c.value),
      ),
    ).toEqual([]);
    const json = JSON.stringify(masked);
    for (const v of ['4242', '1250', 'Acme Widgets', 'Jane Q. Doe']) expect(json).not.toContain(v);
    const t = masked.threads[0]!.turns[1]!;
    expect(t.user_text).toBe('Dispute the ‹amount› charge from ‹merchant› on card ‹card_last4›');
    expect(t.trace!.entities).toEqual({
      card_last4: '‹card_last4›',
      merchant: '‹merchant›',
      amount: '‹amount›',
    });
    expect(t.trace!.rules_evaluated[0]!.predicate).toBe('amount > 1000 and merchant = "‹merchant›"');
    expect(t.trace!.rules_evaluated[0]!.reason).toContain('‹merchant› charged ‹amount›');
    expect(t.trace!.tools_invoked[0]!.parameters).toEqual({
      card: { last4: '‹card_last4›' },
      holder: '‹holder›',
    });
    expect(t.trace!.understanding).toMatchObject({
      extracted_params: { amount: '‹amount›', merchant: '‹merchant›' },
    });
    // Identifiers and names are kept, so the copy still renders and links within it still work.
    expect(t.id).toBe('msg-2');
    expect(t.trace!.rules_evaluated[0]!.rule_id).toBe('max-amount');
    expect(masked.focus).toEqual(doc.focus);
    expect(masked.masked).toContain('entity card_last4');
    expect(json).not.toContain('"4242"');
  });

  it('masks only the chosen values', () => {
    const doc = sampleDocument();
    const only = maskCandidates(doc).filter((c) => c.value === '4242');
    const masked = maskDocument(doc, only);
    expect(masked.threads[0]!.turns[1]!.user_text).toBe(
      'Dispute the 1250 charge from Acme Widgets on card ‹card_last4›',
    );
  });

  it('masks short values only where they stand alone', () => {
    const doc = buildShareDocument({
      kind: 'snapshot',
      focus: { task: 't' },
      threads: [
        {
          id: 't',
          turns: [
            {
              ...turns[1]!,
              userText: 'seats 2 please',
              replyText: '2',
              trace: { ...turns[1]!.trace!, entities: { seats: 2 } },
            },
          ],
        },
      ],
    });
    const chosen = maskCandidates(doc).filter((c) => c.value === '2');
    const masked = maskDocument(doc, chosen);
    const t = masked.threads[0]!.turns[0]!;
    expect(t.reply_text).toBe('‹seats›');
    expect(t.user_text).toBe('seats 2 please');
    expect(t.trace!.entities).toEqual({ seats: '‹seats›' });
  });

  it('masks the bundle too', () => {
    const doc = buildShareDocument({
      kind: 'snapshot',
      focus: { task: 'task-1' },
      threads: sampleDocument().threads.map((t) => ({ id: t.id, turns })),
      bundle: { json: { integrations: [{ settings: { test_curl_response: '{"holder":"Jane Q. Doe"}' } }] } },
    });
    const masked = maskDocument(doc, maskCandidates(doc));
    expect(JSON.stringify(masked.bundle)).not.toContain('Jane Q. Doe');
  });
});

describe('trace links', () => {
  it('carries identifiers only, on the page base URL', () => {
    const link = buildTraceLink('http://127.0.0.1:8787/?task=old&tab=bundle#snapshot=abc', {
      task: 't 1',
      turn: 'm2',
      node: 'rule:x',
    });
    expect(link).toBe('http://127.0.0.1:8787/?task=t+1&turn=m2&node=rule%3Ax');
  });

  it('names the API server when it is not the page own server', () => {
    expect(buildTraceLink('http://h:1/', { task: 't', server: 'https://api.example.com/' })).toBe(
      'http://h:1/?task=t&server=https%3A%2F%2Fapi.example.com',
    );
    expect(buildTraceLink('http://h:1/', { task: 't', server: 'http://h:1' })).toBe('http://h:1/?task=t');
  });

  it('tells when a link points at another server than the connection', () => {
    expect(serverMismatch(undefined, '', 'http://h')).toBe(false);
    expect(serverMismatch('http://h', '', 'http://h')).toBe(false);
    expect(serverMismatch('https://api.example.com', '', 'http://h')).toBe(true);
    expect(serverMismatch('https://api.example.com', 'https://api.example.com/', 'http://h')).toBe(false);
  });

  it('cannot carry a key: the builder has no such input', () => {
    const link = buildTraceLink('http://h/', { task: 't', ...({ apiKey: SECRET } as object) });
    expect(link).not.toContain(SECRET);
  });
});

describe('transcript Markdown', () => {
  it('quotes texts and summarises each trace', () => {
    const md = transcriptMarkdown(sampleDocument().threads[0]!, { exportedAt: '2025-01-02' });
    expect(md).toContain('# Disputes\n');
    expect(md).toContain('- Agent: `card-disputes`');
    expect(md).toContain('## Turn 2\n\n**User**\n\n> Dispute the 1250 charge from Acme Widgets on card 4242');
    expect(md).toContain('Trace: decision `block_with_explanation` · intent `dispute_charge`');
    expect(md).toContain('- Rule `max-amount` → blocked: Disputes over 1000');
    expect(md).toContain('- Tools invoked: `LOOKUP_CARD` (success)');
    expect(md).toContain('Suggestions: “Talk to an agent”');
    expect(md).not.toMatch(/\n{3}/);
  });

  it('keeps multi-line texts inside their quote', () => {
    const thread = {
      ...sampleDocument().threads[0]!,
      turns: [{ ...sampleDocument().threads[0]!.turns[0]!, reply_text: '# not a heading\nline 2' }],
    };
    expect(transcriptMarkdown(thread)).toContain('> # not a heading\n> line 2');
  });
});

describe('file names', () => {
  it('slugs titles', () => {
    expect(fileSlug('Disputes: Acme / 2025!', 'x')).toBe('disputes-acme-2025');
    expect(fileSlug('!!!', 'task-1')).toBe('task-1');
  });
});
