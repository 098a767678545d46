/** The worker pool's waiting room gives every key, and every agent within a key, its turn. */
import { describe, expect, it } from 'vitest';
import { FairQueue, type WorkShare } from './fair-queue';

const share = (key: string, agent = ''): WorkShare => ({ key, agent });

/** Pushes `job` for `key` (and agent) and says it was let in without pushing anything out. */
function pushAll(queue: FairQueue<string>, jobs: [string, string, string?][]): void {
  for (const [key, job, agent] of jobs)
    expect(queue.push(share(key, agent), job)).toEqual({ admitted: true });
}

/** Takes every waiting job, none of them ending meanwhile. */
function takeAll(queue: FairQueue<string>): string[] {
  const order: string[] = [];
  for (let next = queue.take(); next; next = queue.take()) order.push(next.job);
  return order;
}

describe('the fair queue', () => {
  it("keeps one key's jobs in their order", () => {
    const queue = new FairQueue<string>({ total: 10, perKey: 10 });
    pushAll(queue, [
      ['a', 'a1'],
      ['a', 'a2'],
      ['a', 'a3'],
    ]);
    expect(takeAll(queue)).toEqual(['a1', 'a2', 'a3']);
  });

  it('serves the keys in turn, whatever the order their jobs came in', () => {
    const queue = new FairQueue<string>({ total: 10, perKey: 10 });
    pushAll(queue, [
      ['a', 'a1'],
      ['a', 'a2'],
      ['a', 'a3'],
      ['a', 'a4'],
      ['b', 'b1'],
      ['b', 'b2'],
    ]);
    expect(takeAll(queue)).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'a4']);
  });

  it('gives the next thread to a key with nothing running before a key that has jobs running', () => {
    const queue = new FairQueue<string>({ total: 10, perKey: 10 });
    pushAll(queue, [
      ['flood', 'f1'],
      ['flood', 'f2'],
      ['flood', 'f3'],
    ]);
    expect(queue.take()?.job).toBe('f1');
    expect(queue.take()?.job).toBe('f2');
    pushAll(queue, [['quiet', 'q1']]);
    expect(queue.take()).toEqual({ job: 'q1', share: share('quiet') });
    expect(queue.take()?.job).toBe('f3');
  });

  it('serves the agents of one key in turn', () => {
    const queue = new FairQueue<string>({ total: 10, perKey: 10 });
    pushAll(queue, [
      ['k', 'x1', 'x'],
      ['k', 'x2', 'x'],
      ['k', 'x3', 'x'],
      ['k', 'y1', 'y'],
    ]);
    expect(takeAll(queue)).toEqual(['x1', 'y1', 'x2', 'x3']);
  });

  it("counts a job as running until it ends: then its key competes as a newcomer's would", () => {
    const running = new FairQueue<string>({ total: 10, perKey: 10 });
    pushAll(running, [['a', 'a1']]);
    running.take();
    pushAll(running, [
      ['a', 'a2'],
      ['b', 'b1'],
    ]);
    expect(running.take()?.job).toBe('b1');

    const ended = new FairQueue<string>({ total: 10, perKey: 10 });
    pushAll(ended, [['a', 'a1']]);
    ended.finished(ended.take()!.share);
    pushAll(ended, [
      ['a', 'a2'],
      ['b', 'b1'],
    ]);
    expect(ended.take()?.job).toBe('a2');
  });

  it("hands out no more of one key's jobs than it may run at once, and others' meanwhile", () => {
    const queue = new FairQueue<string>({ total: 10, perKey: 10, running: 1 });
    pushAll(queue, [
      ['a', 'a1'],
      ['a', 'a2'],
    ]);
    const first = queue.take()!;
    expect(first.job).toBe('a1');
    expect(queue.take()).toBeUndefined();
    pushAll(queue, [['b', 'b1']]);
    expect(queue.take()?.job).toBe('b1');
    queue.finished(first.share);
    expect(queue.take()?.job).toBe('a2');
  });

  it("refuses a key's job past its own cap while another key has work, and still lets other keys in", () => {
    const queue = new FairQueue<string>({ total: 10, perKey: 2 });
    pushAll(queue, [
      ['a', 'a1'],
      ['a', 'a2'],
      ['b', 'b1'],
    ]);
    expect(queue.push(share('a'), 'a3')).toEqual({ admitted: false, refusal: 'key-full' });
    pushAll(queue, [['b', 'b2']]);
    expect(queue.size).toBe(4);
  });

  it('lets a key alone fill the queue, then makes room for a newcomer with its newest job', () => {
    const queue = new FairQueue<string>({ total: 4, perKey: 1 });
    pushAll(queue, [
      ['a', 'a1'],
      ['a', 'a2'],
      ['a', 'a3'],
      ['a', 'a4'],
    ]);
    expect(queue.push(share('a'), 'a5')).toEqual({ admitted: false, refusal: 'queue-full' });
    expect(queue.push(share('b'), 'b1')).toEqual({ admitted: true, pushedOut: 'a4' });
    expect(queue.push(share('a'), 'a5')).toEqual({ admitted: false, refusal: 'key-full' });
  });

  it('when full, makes room with the newest job of the key that holds the most of the queue', () => {
    const queue = new FairQueue<string>({ total: 4, perKey: 4 });
    pushAll(queue, [
      ['a', 'a1'],
      ['a', 'a2'],
      ['a', 'a3'],
      ['a', 'a4'],
    ]);
    expect(queue.push(share('a'), 'a5')).toEqual({ admitted: false, refusal: 'queue-full' });
    expect(queue.push(share('b'), 'b1')).toEqual({ admitted: true, pushedOut: 'a4' });
    expect(queue.push(share('b'), 'b2')).toEqual({ admitted: true, pushedOut: 'a3' });
    // Now both hold as much: the newcomer's key is refused, nobody else's job is taken.
    expect(queue.push(share('b'), 'b3')).toEqual({ admitted: false, refusal: 'queue-full' });
    expect(queue.size).toBe(4);
    expect(takeAll(queue).sort()).toEqual(['a1', 'a2', 'b1', 'b2']);
  });

  it('says beforehand what a push would refuse, taking nothing', () => {
    const queue = new FairQueue<string>({ total: 3, perKey: 2 });
    pushAll(queue, [
      ['a', 'a1'],
      ['a', 'a2'],
    ]);
    expect(queue.refusal(share('a'))).toBeUndefined(); // alone: the queue has room
    expect(queue.refusal(share('b'))).toBeUndefined();
    pushAll(queue, [['b', 'b1']]);
    expect(queue.refusal(share('a'))).toBe('key-full');
    expect(queue.refusal(share('b'))).toBe('queue-full');
    expect(queue.refusal(share('c'))).toBeUndefined(); // it would push a2 out
    expect(queue.size).toBe(3);
  });

  it('takes a waiting job out when its wait runs out, and not once it was handed out', () => {
    const queue = new FairQueue<string>({ total: 10, perKey: 10 });
    pushAll(queue, [
      ['a', 'a1'],
      ['a', 'a2', 'x'],
    ]);
    expect(queue.remove(share('a', 'x'), 'a2')).toBe(true);
    expect(queue.remove(share('a', 'x'), 'a2')).toBe(false);
    const taken = queue.take()!;
    expect(queue.remove(taken.share, taken.job)).toBe(false);
    expect(queue.size).toBe(0);
    expect(queue.take()).toBeUndefined();
  });

  it('hands every waiting job back when drained', () => {
    const queue = new FairQueue<string>({ total: 10, perKey: 10 });
    pushAll(queue, [
      ['a', 'a1'],
      ['b', 'b1', 'y'],
    ]);
    expect([...queue.waiting()].sort()).toEqual(['a1', 'b1']);
    expect(queue.drain().sort()).toEqual(['a1', 'b1']);
    expect(queue.size).toBe(0);
    expect(queue.take()).toBeUndefined();
  });
});
