/**
 * What jsdom lacks for component tests of the workspace: ResizeObserver and DOMMatrixReadOnly
 * (React Flow), element sizes (the virtualized list measures its viewport), matchMedia, and a
 * modal <dialog>'s showModal and close (`installDialogStubs`, also on its own).
 * Call `installDomStubs()` at the top of a `// @vitest-environment jsdom` test file.
 */
export function installDomStubs(viewport = { width: 800, height: 600 }): void {
  const viewportRect = () => ({
    width: viewport.width,
    height: viewport.height,
    top: 0,
    left: 0,
    bottom: viewport.height,
    right: viewport.width,
    x: 0,
    y: 0,
  });
  installDialogStubs();
  class ResizeObserverStub {
    private readonly cb: ResizeObserverCallback;
    constructor(cb: ResizeObserverCallback) {
      this.cb = cb;
    }
    observe(target: Element) {
      const rect = viewportRect();
      const entry = {
        target,
        contentRect: rect,
        borderBoxSize: [{ inlineSize: rect.width, blockSize: rect.height }],
        contentBoxSize: [{ inlineSize: rect.width, blockSize: rect.height }],
      };
      this.cb([entry as unknown as ResizeObserverEntry], this);
    }
    unobserve() {}
    disconnect() {}
  }
  globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;

  if (!('DOMMatrixReadOnly' in globalThis)) {
    class DOMMatrixReadOnlyStub {
      m22: number;
      constructor(transform?: string) {
        const scale = transform?.match(/scale\(([1-9.])\)/)?.[1];
        this.m22 = scale !== undefined ? Number(scale) : 1;
      }
    }
    (globalThis as Record<string, unknown>).DOMMatrixReadOnly = DOMMatrixReadOnlyStub;
  }

  for (const [prop, value] of [
    ['offsetHeight', viewport.height],
    ['offsetWidth', viewport.width],
    ['clientHeight', viewport.height],
    ['clientWidth', viewport.width],
  ] as const) {
    Object.defineProperty(HTMLElement.prototype, prop, { configurable: true, get: () => value });
  }
  HTMLElement.prototype.getBoundingClientRect = function () {
    return { ...viewportRect(), toJSON: () => ({}) };
  };
  // jsdom has no layout: keep scroll offsets per element, and fire "scroll" as a browser would.
  const offsets = new WeakMap<Element, { top: number; left: number }>();
  const offsetOf = (el: Element) => offsets.get(el) ?? { top: 0, left: 0 };
  Object.defineProperty(HTMLElement.prototype, 'scrollTop', {
    configurable: true,
    get(this: HTMLElement) {
      return offsetOf(this).top;
    },
    set(this: HTMLElement, v: number) {
      offsets.set(this, { ...offsetOf(this), top: v });
    },
  });
  // A scroll container's content height: its first child's inline height (how virtual lists size
  // their inner box), else the viewport.
  Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
    configurable: true,
    get(this: HTMLElement) {
      const inner = this.firstElementChild as HTMLElement | null;
      return Math.max(parseFloat(inner?.style.height ?? '') || 0, viewport.height);
    },
  });
  Object.defineProperty(HTMLElement.prototype, 'scrollLeft', {
    configurable: true,
    get(this: HTMLElement) {
      return offsetOf(this).left;
    },
    set(this: HTMLElement, v: number) {
      offsets.set(this, { ...offsetOf(this), left: v });
    },
  });
  HTMLElement.prototype.scrollTo = function (this: HTMLElement, a?: ScrollToOptions | number, b?: number) {
    const top = typeof a === 'number' ? b : a?.top;
    const left = typeof a === 'number' ? a : a?.left;
    if (top !== undefined) this.scrollTop = top;
    if (left !== undefined) this.scrollLeft = left;
    this.dispatchEvent(new Event('scroll'));
  };

  if (typeof window.matchMedia !== 'function') {
    window.matchMedia = (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    });
  }
}

/** showModal and close as far as tests see them: the `open` attribute (jsdom has neither). */
export function installDialogStubs(): void {
  const proto = HTMLDialogElement.prototype as Partial<Pick<HTMLDialogElement, 'showModal' | 'close'>>;
  proto.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  proto.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
}
