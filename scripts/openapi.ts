/**
 * Writes the generated files that follow from the OpenAPI document (src/http/openapi.ts):
 * - docs/openapi.json: the document as the server serves it at /api/public/v1/openapi.json,
 *   pretty-printed (Redocly lints this file; reviewers diff it);
 * - src/client/api-types.ts: its TypeScript types (openapi-typescript), the typed client's source.
 *
 * `npm run openapi` after any change to the document; test/http/openapi-document.test.ts fails
 * while either file differs from what this would write.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { buildOpenApi } from '../src/http/openapi.js';

export const DOCUMENT_FILE = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
export const TYPES_FILE = fileURLToPath(new URL('../src/client/api-types.ts', import.meta.url));

const HEADER = `/**
 * GENERATED from docs/openapi.json by \`npm run openapi\` (openapi-typescript): do not edit.
 * test/http/openapi-document.test.ts fails when this file and the document disagree.
 */

`;

export function documentText(): string {
  return `${JSON.stringify(buildOpenApi(), null, 2)}\n`;
}

export async function typesText(document: string = documentText()): Promise<string> {
  const ast = await openapiTS(JSON.parse(document) as OpenAPI3, { silent: true });
  return HEADER + astToString(ast);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const document = documentText();
  writeFileSync(DOCUMENT_FILE, document);
  writeFileSync(TYPES_FILE, await typesText(document));
  console.log(`wrote ${DOCUMENT_FILE} and ${TYPES_FILE}`);
}
