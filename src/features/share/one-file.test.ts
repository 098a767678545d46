import { describe, expect, it } from 'vitest';
import { familyDocument, sampleDocument } from './share-document.fixture';
import { DOCUMENT_PLACEHOLDER, embeddableJson, oneFileHtml, readEmbeddedDocument } from './one-file';

// As the build writes it: the element formatted over lines, and the page's code holds the
// placeholder too (it checks for it).
const template = `<html><head></head><body>
    <script type="application/json" id="threadline-document">
      ${DOCUMENT_PLACEHOLDER}
    </script>
<script type="module">app("${DOCUMENT_PLACEHOLDER}")</script></body></html>`;

describe('the one-file HTML snapshot', () => {
  it('embeds the document where the template takes it, and reads it back whole', () => {
    const doc = familyDocument();
    const html = oneFileHtml(template, doc);
    expect(html.split(DOCUMENT_PLACEHOLDER)).toHaveLength(2);
    const text = /id="threadline-document">(.*?)<\/script>/s.exec(html)?.[1] ?? '';
    expect(text.trim()).toBe(embeddableJson(doc));
    expect(readEmbeddedDocument(text)).toEqual({ doc });
  });

  it('keeps text that looks like markup from closing the element it sits in', () => {
    const doc = sampleDocument();
    doc.threads[0]!.turns[0]!.user_text = '</script><script>alert(1)</script><!-- \u2028';
    const json = embeddableJson(doc);
    expect(json).not.toMatch(/[<\u2028\u2029]/);
    expect(readEmbeddedDocument(json)).toEqual({ doc });
    const html = oneFileHtml(template, doc);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
  });

  it('refuses a template that is not the snapshot page, and says why a page cannot be shown', () => {
    expect(() => oneFileHtml('<html>index</html>', sampleDocument())).toThrow(/missing or damaged/);
    expect(readEmbeddedDocument(DOCUMENT_PLACEHOLDER)).toEqual({
      error: expect.stringMatching(/holds no snapshot/),
    });
    expect(readEmbeddedDocument('{"format":"threadline"')).toEqual({
      error: expect.stringMatching(/damaged \(not JSON\)/),
    });
    expect(readEmbeddedDocument('{"format":"threadline","version":9}')).toEqual({
      error: expect.stringMatching(/newer Threadline/),
    });
  });
});
