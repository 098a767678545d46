// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import Markdown, { isSafeHref } from './Markdown';

afterEach(cleanup);

describe('reply Markdown', () => {
  it('renders Markdown, and raw HTML only as the text the agent sent', () => {
    const { container } = render(
      <Markdown text={'**bold** and <img src=x onerror="alert(1)"> <script>alert(2)</script>'} />,
    );
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(container.textContent).toContain('<script>alert(2)</script>');
  });

  it('shows a block of raw HTML as text too', () => {
    const { container } = render(<Markdown text={'<div onclick="x()">\n<b>hi</b>\n</div>'} />);
    expect(container.querySelector('div[onclick], b')).toBeNull();
    expect(container.textContent).toContain('<b>hi</b>');
  });

  it('keeps http(s) links safe and makes other links inert', () => {
    const { container } = render(
      <Markdown
        text={
          '[ok](https://example.com) [bad](javascript:alert(1)) [data](data:text/html,x) ![pic](https://t.example/p.png)'
        }
      />,
    );
    const links = container.querySelectorAll('a');
    expect(links).toHaveLength(1);
    expect(links[0]?.getAttribute('href')).toBe('https://example.com');
    expect(links[0]?.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(container.textContent).toContain('bad');
    expect(container.textContent).toContain('[image: pic]');
    expect(container.querySelector('img')).toBeNull();
  });

  it('knows which hrefs are safe', () => {
    expect(isSafeHref('https://a.b')).toBe(true);
    expect(isSafeHref('mailto:x@y.z')).toBe(true);
    expect(isSafeHref(' javascript:alert(1)')).toBe(false);
    expect(isSafeHref(undefined)).toBe(false);
  });
});
