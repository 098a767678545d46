/**
 * The one-file HTML snapshot: the built snapshot page (`threadline-snapshot.html`, every script
 * and style inline, see scripts/one-file-snapshot.ts) with the shared document embedded in a JSON
 * script element. Opened from disk it shows the document read-only and fetches nothing: its
 * Content-Security-Policy allows no connection, only its own inline script and styles.
 */
import { parseShareDocument, type ShareDocument } from './document';

/** The built template, beside the app's index.html. */
const ONE_FILE_TEMPLATE = 'threadline-snapshot.html';
export const EMBEDDED_DOCUMENT_ID = 'threadline-document';
/** Where the template takes the document (inside the JSON script element). */
export const DOCUMENT_PLACEHOLDER = '<!--threadline-document-->';

/**
 * The document as the text of a script element: JSON with every `<` written `\u003c` (and the
 * two line separators JavaScript once refused), so no text inside can close the element.
 */
export function embeddableJson(doc: ShareDocument): string {
  return JSON.stringify(doc)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The element that takes the document, as the template holds it (whitespace around the
 * placeholder allowed). The page's own inline script holds the placeholder too, but never this
 * element: the build writes every `<script` in the code another way.
 */
const DOCUMENT_ELEMENT = new RegExp(
  `<script type="application/json" id="${EMBEDDED_DOCUMENT_ID}">\\s*${DOCUMENT_PLACEHOLDER}\\s*</script>`,
  'g',
);

/** The template with the document in place; throws when the template is not the snapshot page. */
export function oneFileHtml(template: string, doc: ShareDocument): string {
  const found = [...template.matchAll(DOCUMENT_ELEMENT)];
  if (found.length !== 1) throw new Error('The snapshot page of this build is missing or damaged.');
  const element = found[0]!;
  const start = element.index + element[0].indexOf(DOCUMENT_PLACEHOLDER);
  return template.slice(0, start) + embeddableJson(doc) + template.slice(start + DOCUMENT_PLACEHOLDER.length);
}

/** The embedded document, or why it cannot be shown. */
export function readEmbeddedDocument(text: string): { doc: ShareDocument } | { error: string } {
  const trimmed = text.trim();
  if (!trimmed || trimmed === DOCUMENT_PLACEHOLDER)
    return { error: 'This page holds no snapshot: download one from Threadline’s Share dialog.' };
  try {
    return { doc: parseShareDocument(JSON.parse(trimmed)) };
  } catch (e) {
    return {
      error:
        e instanceof SyntaxError
          ? 'The snapshot in this page is damaged (not JSON).'
          : String((e as Error).message),
    };
  }
}

/** Fetches the template from the app's own server and fills it in. */
export async function buildOneFileSnapshot(
  doc: ShareDocument,
  base = import.meta.env.BASE_URL,
): Promise<string> {
  let response: Response;
  try {
    response = await fetch(`${base}${ONE_FILE_TEMPLATE}`, { cache: 'no-cache' });
  } catch {
    throw new Error('The snapshot page could not be read from this server.');
  }
  if (!response.ok)
    throw new Error(
      `This server does not offer the one-file snapshot page (${response.status}): it is part of the built app (npm run build).`,
    );
  return oneFileHtml(await response.text(), doc);
}
