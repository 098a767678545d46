import { afterEach, describe, expect, it } from 'vitest';
import { dialogOpened } from '../../components/ui/open-dialogs';
import { registerTarget, runTarget, runTargetWhenReady, TARGET_WAIT_MS } from './targets';

const removers: Array<() => void> = [];
const register = (name: string, fn: () => void) => removers.push(registerTarget(name, fn));
afterEach(() => removers.splice(0).forEach((remove) => remove()));

describe('targets', () => {
  it('runs the registered handler by name, and nothing once it is removed', () => {
    const calls: string[] = [];
    const remove = registerTarget('composer.focus:t1', () => calls.push('t1'));
    expect(runTarget('composer.focus:t1')).toBe(true);
    expect(runTarget('composer.focus:t2')).toBe(false);
    remove();
    expect(runTarget('composer.focus:t1')).toBe(false);
    expect(calls).toEqual(['t1']);
  });

  it('a request for a target not yet there runs when it registers, once', () => {
    const calls: number[] = [];
    runTargetWhenReady('suite.run');
    register('suite.run', () => calls.push(1));
    expect(calls).toEqual([1]);
    removers.splice(0).forEach((remove) => remove());
    register('suite.run', () => calls.push(2));
    expect(calls).toEqual([1]);
  });

  it('a request gives up after the wait, so a later registration does not run it', () => {
    const calls: number[] = [];
    runTargetWhenReady('bundle-editor.focus', Date.now() - TARGET_WAIT_MS - 1);
    register('bundle-editor.focus', () => calls.push(1));
    expect(calls).toEqual([]);
  });

  it('waits for an open modal dialog to close before it runs', () => {
    const calls: number[] = [];
    register('composer.focus:t3', () => calls.push(1));
    const closed = dialogOpened();
    runTargetWhenReady('composer.focus:t3');
    expect(calls).toEqual([]);
    closed();
    expect(calls).toEqual([1]);
  });
});
