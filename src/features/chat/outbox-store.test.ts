import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { decodeHttpError } from '../../api/errors';
import { canRetry, selectOutbox, useOutboxStore, type OutboxEntry } from './outbox-store';

const err = new ApiError({ kind: 'network', status: 0, title: 'x', message: 'y', guidance: 'z' });

describe('outbox', () => {
  it('never starts an entry twice while it is pending, and allows a retry after a failure', () => {
    const { begin, fail, remove } = useOutboxStore.getState();
    expect(begin({ localId: 'l1', taskId: 't', text: 'hi' })).toBe(true);
    expect(begin({ localId: 'l1', taskId: 't', text: 'hi' })).toBe(false);
    fail('t', 'l1', err);
    expect(selectOutbox('t')(useOutboxStore.getState())[0]?.status).toBe('error');
    expect(begin({ localId: 'l1', taskId: 't', text: 'hi' })).toBe(true);
    expect(begin({ localId: 'l1', taskId: 't', text: 'hi' })).toBe(false);
    expect(selectOutbox('t')(useOutboxStore.getState())).toHaveLength(1);
    remove('t', 'l1');
    expect(selectOutbox('t')(useOutboxStore.getState())).toHaveLength(0);
  });

  it('offers no retry for a message the service refused as such, and keeps it for everything else', () => {
    const entry = (text: string, error: ApiError): OutboxEntry => ({
      localId: 'l',
      taskId: 't',
      text,
      status: 'error',
      startedAt: 0,
      error,
    });
    const tooLong = decodeHttpError(
      422,
      '',
      JSON.stringify({
        error: 'invalid_request',
        message: 'Invalid request: body.text: Too big',
        detail: [
          {
            loc: ['body', 'text'],
            msg: 'Too big: expected string to have <=20000 characters',
            type: 'too_big',
          },
        ],
      }),
    );
    expect(canRetry(entry('short, but refused by a stricter service', tooLong))).toBe(false);
    expect(canRetry(entry('x'.repeat(20_001), decodeHttpError(413, '', '')))).toBe(false);
    expect(canRetry(entry('hi', err))).toBe(true);
    expect(canRetry(entry('hi', decodeHttpError(503, '', '')))).toBe(true);
    expect(canRetry(entry('hi', decodeHttpError(401, '', '{"error":"unauthorized"}')))).toBe(true);
    const badBundle = decodeHttpError(
      422,
      '',
      JSON.stringify({
        detail: [{ loc: ['body', 'agent_settings_bundle', 'rules', 0], msg: 'bad', type: 'x' }],
      }),
    );
    expect(canRetry(entry('hi', badBundle))).toBe(true);
  });

  it('keeps the messages of threads named like prototype members apart', () => {
    const { begin, remove } = useOutboxStore.getState();
    const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];
    for (const task of names) expect(selectOutbox(task)(useOutboxStore.getState())).toEqual([]);
    for (const task of names) expect(begin({ localId: `l-${task}`, taskId: task, text: task })).toBe(true);
    for (const task of names)
      expect(selectOutbox(task)(useOutboxStore.getState()).map((e) => e.text)).toEqual([task]);
    for (const task of names) remove(task, `l-${task}`);
    for (const task of names) expect(selectOutbox(task)(useOutboxStore.getState())).toEqual([]);
  });
});
