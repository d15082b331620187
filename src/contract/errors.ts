/**
 * The error bodies of the API (contract section 3; docs/contract/operations.md, "Answers the public
 * contract leaves open"), defined once: the document's Detail, FieldErrors and DetailAndFieldErrors.
 */
import { z } from 'zod';

const messages = z.array(z.string()).min(1);

export const detailSchema = z.strictObject({ detail: z.string() }).meta({ id: 'Detail', description: 'An error of a general kind: `{"detail": text}`' });

export const fieldErrorsSchema = z
  .record(z.string(), messages)
  .meta({ id: 'FieldErrors', description: 'Validation errors: field name (or query parameter) -> messages', minProperties: 1 });

export const detailAndFieldErrorsSchema = z
  .object({ detail: z.string() })
  .catchall(messages)
  .meta({ id: 'DetailAndFieldErrors', description: 'A body of the wrong shape: `detail` sums up every problem, and each field names its own messages' });

export type DetailView = z.output<typeof detailSchema>;
export type FieldErrorsView = z.output<typeof fieldErrorsSchema>;
