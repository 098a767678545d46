// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyComponent } from './lazy-component';

afterEach(cleanup);

/** A module the test resolves (or fails) when it says, counting how often it was asked for. */
function deferredModule() {
  let resolve: () => void = () => {};
  let reject: (error: Error) => void = () => {};
  let asked = 0;
  function Greeting({ name }: { name: string }) {
    const [clicks, setClicks] = useState(0);
    return (
      <button type="button" onClick={() => setClicks((n) => n + 1)}>
        Hello {name} ({clicks})
      </button>
    );
  }
  const load = () => {
    asked += 1;
    return new Promise<{ default: typeof Greeting }>((res, rej) => {
      resolve = () => res({ default: Greeting });
      reject = rej;
    });
  };
  return {
    load,
    resolve: () => resolve(),
    reject: (error: Error) => reject(error),
    asked: () => asked,
  };
}

const page = (View: (props: { name: string }) => React.ReactNode, name = 'Ada') => (
  <Suspense fallback={<p>Loading…</p>}>
    <View name={name} />
  </Suspense>
);

describe('lazyComponent', () => {
  it('shows its fallback until the code is loaded, then the component', async () => {
    const module = deferredModule();
    const View = lazyComponent(module.load);
    render(page(View));
    expect(screen.getByText('Loading…')).toBeTruthy();
    await act(async () => module.resolve());
    expect(await screen.findByRole('button', { name: 'Hello Ada (0)' })).toBeTruthy();
  });

  it('once preloaded, renders in the first commit without suspending', async () => {
    const module = deferredModule();
    const View = lazyComponent(module.load);
    const preloaded = View.preload();
    module.resolve();
    await preloaded;
    render(page(View));
    expect(screen.queryByText('Loading…')).toBeNull();
    expect(screen.getByRole('button', { name: 'Hello Ada (0)' })).toBeTruthy();
    expect(module.asked()).toBe(1);
  });

  it('keeps an instance mounted before the load: its state survives later renders', async () => {
    const module = deferredModule();
    const View = lazyComponent(module.load);
    const { rerender } = render(page(View));
    await act(async () => module.resolve());
    const button = await screen.findByRole('button', { name: 'Hello Ada (0)' });
    await act(async () => button.click());
    rerender(page(View, 'Grace'));
    expect(screen.getByRole('button', { name: 'Hello Grace (1)' })).toBeTruthy();
  });

  it('asks for its code again after a failed preload', async () => {
    const module = deferredModule();
    const View = lazyComponent(module.load);
    const failed = View.preload();
    module.reject(new Error('offline'));
    await expect(failed).rejects.toThrow('offline');
    const again = View.preload();
    module.resolve();
    await again;
    expect(module.asked()).toBe(2);
    render(page(View));
    expect(screen.getByRole('button', { name: 'Hello Ada (0)' })).toBeTruthy();
  });
});
