// The text of src/api/openapi/session-examples.json: the answers of the example session (example-session.ts) as the
// OpenAPI document's examples (docs/api.md#the-openapi-document). `npm run openapi:examples` writes it; a test checks
// that the committed file is what the session answers now.
import { recordExampleSession } from './example-session.js';

type Json = Record<string, unknown>;

function sortedByKey<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export async function sessionExamplesSource(): Promise<string> {
  const { operations, errors } = await recordExampleSession();
  const examples = {
    operations: sortedByKey(
      Object.fromEntries(
        Object.entries(operations).map(([id, own]) => [id, { ...own, answers: sortedByKey(own.answers) }]),
      ) as Record<string, Json>,
    ),
    errors: sortedByKey(errors),
  };
  return `${JSON.stringify(examples, null, 2)}\n`;
}
