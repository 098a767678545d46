/**
 * Every filter of `GET /reference/v1/turns`, alone and combined, on a small set of real turns
 * whose traces are known (fixed clocks, so dates are too): each alternative of a field, OR within
 * a field, AND across fields, and each answer the same when read a page of one turn at a time.
 * Then paging while other clients keep sending, and a key limited to one agent (results and
 * facets).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnFacets, TurnSearchPage } from '../../src/contract/api';
import { CARDS_ONLY, call, createTask, sendMessage, startService, type Service } from './helpers';

let service: Service;
/** `task_id#turn` of each turn, by the label the expectations use. */
const labels = new Map<string, string>();
let bundleHash: string;
let v1Version: string;
let v2Version: string;

const CLOCK = '2025-03-15T12:00:00Z';
const COFFEE = 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago';

/** Sends each message to a new task, labelling the turns `${prefix}1`, `${prefix}2`, … */
async function conversation(
  prefix: string,
  task: Record<string, unknown>,
  says: string[],
  extra: Record<string, unknown> = {},
) {
  const made = await createTask(service, { reference_clock: CLOCK, ...task });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const sent = [];
  for (const [i, text] of says.entries()) {
    const reply = await sendMessage(service, made.body.id, text, extra);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    labels.set(`${made.body.id}#${i + 1}`, `${prefix}${i + 1}`);
    sent.push(reply.body);
  }
  return sent;
}

const search = (query: string, key?: string) =>
  call<TurnSearchPage>(service, 'GET', `/reference/v1/turns${query}`, key ? { key } : {});
const facets = (query: string, key?: string) =>
  call<TurnFacets>(service, 'GET', `/reference/v1/turns/facets${query}`, key ? { key } : {});
const labelOf = (t: { task_id: string; turn: number }) => labels.get(`${t.task_id}#${t.turn}`) ?? '?';

/** The labels a search finds, newest first: in one page, and again a turn a page. */
async function found(query: string): Promise<string[]> {
  const sep = query ? '&' : '?';
  const whole = await search(`${query}${sep}limit=200`);
  expect(whole.status, `${query}: ${JSON.stringify(whole.body)}`).toBe(200);
  expect(whole.body.next_cursor, query).toBeNull();
  const paged: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages += 1) {
    const page: { body: TurnSearchPage } = await search(
      `${query}${sep}limit=1${cursor ? `&cursor=${cursor}` : ''}`,
    );
    paged.push(...page.body.items.map(labelOf));
    cursor = page.body.next_cursor;
    if (!cursor) break;
  }
  const all = whole.body.items.map(labelOf);
  expect(paged, `${query}, a turn a page`).toEqual(all);
  return all;
}

beforeAll(async () => {
  service = await startService();
  // A: blocked by the 8-day window. B: the same charge under v1's 30-day window, filed.
  // C: over $500, blocked until identity is verified. D: a flight change with the client's bundle.
  await conversation('A', {}, [COFFEE]);
  await conversation('B', { version_tag: 'v1' }, [
    COFFEE,
    'It was a duplicate charge',
    'jane@example.com',
    'Yes, go ahead',
  ]);
  await conversation('C', {}, ['dispute a $620 charge from yesterday']);
  const { body } = await call(service, 'GET', '/reference/v1/agents/flight-changes/bundle');
  const bundle = { ...body.bundle, __marker: 'search test' }; // same agent, other content
  const flight = await conversation(
    'D',
    { agent_id: 'flight-changes' },
    ['I need to change my flight', 'ABC123'],
    { agent_settings_bundle: bundle },
  );
  bundleHash = flight[0].bundle_hash;
  const hits = (await search('?limit=200')).body.items;
  v1Version = hits.find((h) => labelOf(h) === 'B1')!.version_id;
  v2Version = hits.find((h) => labelOf(h) === 'A1')!.version_id;
});
afterAll(() => service.dispose());

describe('each filter alone', () => {
  it('finds every turn without filters, newest first', async () => {
    expect(await found('')).toEqual(['D2', 'D1', 'C1', 'B4', 'B3', 'B2', 'B1', 'A1']);
  });

  it('agent', async () => {
    expect(await found('?agent=flight-changes')).toEqual(['D2', 'D1']);
    expect(await found('?agent=card-disputes')).toEqual(['C1', 'B4', 'B3', 'B2', 'B1', 'A1']);
    expect(await found('?agent=shop-returns')).toEqual([]);
    expect(await found('?agent=shop-returns,flight-changes')).toEqual(['D2', 'D1']);
  });

  it('rule, with any result or with one', async () => {
    expect(await found('?rule=DISPUTE_WINDOW')).toEqual(['C1', 'B4', 'B3', 'B2', 'B1', 'A1']);
    expect(await found('?rule=DISPUTE_WINDOW:blocked')).toEqual(['A1']);
    expect(await found('?rule=DISPUTE_WINDOW:allowed')).toEqual(['C1', 'B4', 'B3', 'B2', 'B1']);
    expect(await found('?rule=LOOKUP_BEFORE_CHANGE:blocked')).toEqual(['D1']);
    expect(await found('?rule=DISPUTE_FILED')).toEqual(['B4']);
    expect(await found('?rule=NO_SUCH_RULE')).toEqual([]);
    expect(await found('?rule=DISPUTE_WINDOW:blocked,VERIFIED_IDENTITY_ABOVE_500:blocked')).toEqual([
      'C1',
      'A1',
    ]);
    expect(
      await found(
        '?rule=FEE_CONFIRMATION:requires_confirmation&rule=DISPUTE_CHARGE.requires_confirmation:requires_confirmation',
      ),
    ).toEqual(['D2', 'B3']);
    // A rule alone and one with a result, as alternatives.
    expect(await found('?rule=BOOKING_FOUND,DISPUTE_WINDOW:blocked')).toEqual(['D2', 'A1']);
  });

  it('tool, considered or invoked', async () => {
    expect(await found('?tool=FREEZE_CARD')).toEqual(['C1', 'B1', 'A1']);
    expect(await found('?tool=CANCEL_FLIGHT')).toEqual(['D1']);
    expect(await found('?tool=DISPUTE_CHARGE:invoked')).toEqual(['B4']);
    expect(await found('?tool=FREEZE_CARD:invoked')).toEqual([]);
    expect(await found('?tool=LOOKUP_BOOKING:invoked,DISPUTE_CHARGE:invoked')).toEqual(['D2', 'B4']);
    expect(await found('?tool=CANCEL_FLIGHT&tool=DISPUTE_CHARGE:invoked')).toEqual(['D1', 'B4']);
  });

  it('decision and intent', async () => {
    expect(await found('?decision=block_with_explanation')).toEqual(['C1', 'A1']);
    expect(await found('?decision=proceed,request_confirmation')).toEqual(['B4', 'B3']);
    expect(await found('?decision=request_information')).toEqual(['D2', 'D1', 'B2', 'B1']);
    // …and by the word the app shows for it.
    expect(await found('?decision=blocked')).toEqual(['C1', 'A1']);
    expect(await found('?decision=needs%20information')).toEqual(['D2', 'D1', 'B2', 'B1']);
    expect(await found('?intent=confirm')).toEqual(['B4']);
    expect(await found('?intent=change_flight&intent=provide_information')).toEqual(['D2', 'D1', 'B3', 'B2']);
  });

  it('param: present, equal to a value, above or below a number or a date', async () => {
    expect(await found('?param=dispute-reason')).toEqual(['B4', 'B3', 'B2']);
    expect(await found('?param=booking-reference')).toEqual(['D2']);
    expect(await found('?param=merchant-name=Coffee Corner')).toEqual(['B4', 'B3', 'B2', 'B1', 'A1']);
    expect(await found('?param=booking-reference=ABC123')).toEqual(['D2']);
    expect(await found('?param=booking-reference=XYZ999')).toEqual([]);
    expect(await found('?param=transaction-amount>500')).toEqual(['C1']);
    expect(await found('?param=transaction-amount<500')).toEqual(['B4', 'B3', 'B2', 'B1', 'A1']);
    expect(await found('?param=transaction-amount>120')).toEqual(['C1']); // strictly above
    expect(await found('?param=change-fee<200')).toEqual(['D2']);
    expect(await found('?param=transaction-date>2025-03-10')).toEqual(['C1']);
    expect(await found('?param=transaction-date<2025-03-10')).toEqual(['B4', 'B3', 'B2', 'B1', 'A1']);
    expect(await found('?param=current-flight-date>2026-01-01')).toEqual(['D2']);
    expect(await found('?param=current-flight-date<2026-01-01')).toEqual([]);
    // Entity values by their entity key.
    expect(await found('?param=booking.change-fee>100')).toEqual(['D2']);
    expect(await found('?param=transaction.merchant-name=Coffee Corner')).toEqual([
      'B4',
      'B3',
      'B2',
      'B1',
      'A1',
    ]);
    // Repeated, as alternatives (a value may hold commas, so param is never split at them).
    expect(await found('?param=transaction-amount>500&param=booking-reference')).toEqual(['D2', 'C1']);
  });

  it('q: words of the message or of the reply', async () => {
    // D1's reply asks for a reference "like ABC123"; D2's message is one.
    expect(await found('?q=ABC123')).toEqual(['D2', 'D1']);
    // A1 and B1 by their message, B3 by its reply (which restates the charge).
    expect(await found('?q=Coffee Corner')).toEqual(['B3', 'B1', 'A1']);
    expect(await found('?q=duplicate')).toEqual(['B4', 'B3', 'B2', 'B1']);
    expect(await found('?q=zeppelin')).toEqual([]);
    // Every word must appear, in any order and case.
    expect(await found('?q=CORNER coffee')).toEqual(['B3', 'B1', 'A1']);
    expect(await found('?q=coffee flight')).toEqual([]);
    // An email address is its words, in the message (B3) as in the query.
    expect(await found('?q=jane@example.com')).toEqual(['B3']);
    expect(await found('?q=jane')).toEqual(['B3']);
  });

  it('from and to, by when the reply was given', async () => {
    const hits = (await search('?limit=200')).body.items;
    const at = (label: string) => hits.find((h) => labelOf(h) === label)!.created_at;
    const after = (t: string) => hits.filter((h) => h.created_at >= t).map(labelOf);
    const before = (t: string) => hits.filter((h) => h.created_at < t).map(labelOf);
    expect(after(at('B3'))).toContain('B3');
    expect(await found(`?from=${at('B3')}`)).toEqual(after(at('B3')));
    expect(await found(`?to=${at('B3')}`)).toEqual(before(at('B3')));
    expect(await found(`?from=${at('B2')}&to=${at('C1')}`)).toEqual(
      after(at('B2')).filter((l) => before(at('C1')).includes(l)),
    );
    const today = at('A1').slice(0, 10);
    expect(await found(`?from=${today}&to=${today}`)).toEqual(hits.map(labelOf));
    expect(await found('?from=2999-01-01')).toEqual([]);
    expect(await found('?to=2000-01-01')).toEqual([]);
  });

  it('version and bundle', async () => {
    expect(v1Version).not.toBe(v2Version);
    expect(await found(`?version=${v1Version}`)).toEqual(['B4', 'B3', 'B2', 'B1']);
    expect(await found(`?version=${v1Version},${v2Version}`)).toEqual(['C1', 'B4', 'B3', 'B2', 'B1', 'A1']);
    expect(bundleHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await found(`?bundle=${bundleHash}`)).toEqual(['D2', 'D1']);
    expect(await found(`?bundle=${'0'.repeat(64)},${bundleHash}`)).toEqual(['D2', 'D1']);
    expect(await found(`?bundle=${'0'.repeat(64)}`)).toEqual([]);
  });
});

describe('filters combined: AND across fields', () => {
  it('narrows by each further field', async () => {
    expect(await found('?agent=card-disputes&decision=request_information')).toEqual(['B2', 'B1']);
    expect(await found('?rule=DISPUTE_WINDOW:allowed&decision=block_with_explanation')).toEqual(['C1']);
    expect(await found('?tool=DISPUTE_CHARGE:invoked&param=transaction-amount>500')).toEqual([]);
    expect(
      await found('?rule=DISPUTE_WINDOW:allowed&param=transaction-amount<500&intent=provide_information'),
    ).toEqual(['B3', 'B2']);
    expect(await found(`?bundle=${bundleHash}&tool=LOOKUP_BOOKING:invoked`)).toEqual(['D2']);
    expect(await found(`?version=${v1Version}&rule=DISPUTE_CHARGE.params.required:blocked`)).toEqual([
      'B2',
      'B1',
    ]);
    expect(await found('?q=charge&param=transaction-date>2025-03-10')).toEqual(['C1']);
    expect(await found('?decision=proceed&agent=flight-changes')).toEqual([]);
    expect(await found('?param=dispute-reason=duplicate charge&q=go ahead')).toEqual(['B4', 'B3']);
    expect(await found('?param=dispute-reason=duplicate charge&q=filed')).toEqual(['B4']);
  });

  it('OR within each field and AND across all of them at once', async () => {
    const query = [
      'agent=card-disputes,shop-returns',
      'rule=DISPUTE_WINDOW:allowed,LOOKUP_BEFORE_CHANGE:blocked',
      'tool=DISPUTE_CHARGE,CANCEL_FLIGHT',
      'decision=request_information,request_confirmation',
      'intent=provide_information,change_flight',
      'param=dispute-reason',
      'param=booking-reference',
      `version=${v1Version},${v2Version}`,
      'from=2000-01-01',
      'to=2999-01-01',
    ].join('&');
    expect(await found(`?${query}`)).toEqual(['B3', 'B2']);
    expect(await found(`?${query}&q=jane`)).toEqual(['B3']);
  });
});

describe('a key limited to one agent', () => {
  it('searches and counts only that agent’s turns', async () => {
    const all = await found('?agent=card-disputes');
    const limited = await search('?limit=200', CARDS_ONLY);
    expect(limited.status).toBe(200);
    expect(limited.body.items.map(labelOf)).toEqual(all);
    // A filter that matches only another agent's turns finds nothing rather than them.
    expect((await search('?tool=LOOKUP_BOOKING', CARDS_ONLY)).body.items).toEqual([]);
    expect((await search(`?bundle=${bundleHash}`, CARDS_ONLY)).body.items).toEqual([]);
    expect((await search('?agent=card-disputes,flight-changes', CARDS_ONLY)).status).toBe(403);

    const counted = await facets('', CARDS_ONLY);
    expect(counted.status).toBe(200);
    const root = await facets('?agent=card-disputes');
    expect(counted.body).toEqual(root.body);
    expect(counted.body.intents.map((i) => i.value)).not.toContain('change_flight');
    expect(counted.body.tools.map((t) => t.tool)).not.toContain('LOOKUP_BOOKING');
    expect(counted.body.rules.map((r) => r.rule_id)).not.toContain('LOOKUP_BEFORE_CHANGE');
    const other = await facets('?tool=LOOKUP_BOOKING', CARDS_ONLY);
    expect(other.body).toMatchObject({ total: 0, complete: true, decisions: [], rules: [], tools: [] });
    expect((await facets('?agent=flight-changes', CARDS_ONLY)).status).toBe(403);
  });
});

describe('paging while turns keep arriving', () => {
  it('pages neither repeat nor skip a turn older than the first page, while three clients send', async () => {
    const busy = [];
    for (let i = 0; i < 3; i += 1)
      busy.push((await createTask(service, { reference_clock: CLOCK })).body.id as string);
    let sending = true;
    let answered = 0;
    const senders = busy.map(async (taskId, c) => {
      for (let m = 0; sending; m += 1) {
        expect(
          (await sendMessage(service, taskId, `client ${c} ${m}: a duplicate charge of $${m}`)).status,
        ).toBe(200);
        answered += 1;
      }
    });
    /** Resolves once another send is answered: every page is read after a turn it may not skip or repeat. */
    const aSendLater = async () => {
      const seen = answered;
      while (answered === seen) await new Promise((r) => setTimeout(r, 1));
    };
    const keyOf = (t: { task_id: string; turn: number }) => `${t.task_id}#${t.turn}`;
    const everything = async (query: string) => {
      const out: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { body: TurnSearchPage } = await search(
          `${query}&limit=200${cursor ? `&cursor=${cursor}` : ''}`,
        );
        out.push(...page.body.items.map(keyOf));
        cursor = page.body.next_cursor;
      } while (cursor);
      return out;
    };
    try {
      // Wait until the senders are under way.
      while ((await everything('?agent=card-disputes')).length < 12)
        await new Promise((r) => setTimeout(r, 5));
      for (const query of [
        '?agent=card-disputes',
        '?rule=DISPUTE_WINDOW:not_applicable',
        '?tool=DISPUTE_CHARGE',
        '?q=duplicate charge',
      ]) {
        const before = await everything(query);
        const paged: string[] = [];
        let cursor: string | null = null;
        do {
          const page: { body: TurnSearchPage } = await search(
            `${query}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
          );
          paged.push(...page.body.items.map(keyOf));
          cursor = page.body.next_cursor;
          await aSendLater();
        } while (cursor);
        const after = await everything(query);
        expect(new Set(paged).size, query).toBe(paged.length);
        // Everything there before the first page is in the pages, and the pages keep the order.
        expect(paged, query).toEqual(expect.arrayContaining(before));
        expect(paged, query).toEqual(after.filter((k) => paged.includes(k)));
        expect(after.length, `${query}: the clients were sending`).toBeGreaterThan(before.length);
      }
    } finally {
      sending = false;
      await Promise.all(senders);
    }
  });
});
