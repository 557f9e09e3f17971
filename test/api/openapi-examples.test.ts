// docs/api.md#the-openapi-document: every operation of the document shows an example of its request body and of
// each success answer, and every example of the document is valid against the schema beside it (Ajv, JSON Schema
// 2020-12), so an example a client copies is one the API would accept or give.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './api-harness.js';
import { escapePointer, schemaValidators } from './openapi-responses.js';

type Json = Record<string, unknown>;

/** Each example of the document with the pointer of the schema beside it. */
function examplesOf(document: Json): { at: string; example: unknown; schema: string }[] {
  const found: { at: string; example: unknown; schema: string }[] = [];
  const search = (value: unknown, pointer: string): void => {
    if (typeof value !== 'object' || value === null) return;
    const node = value as Json;
    if ('schema' in node && 'example' in node)
      found.push({ at: pointer, example: node.example, schema: `${pointer}/schema` });
    if ('schema' in node && typeof node.examples === 'object')
      for (const [name, example] of Object.entries(node.examples as Record<string, Json>))
        found.push({ at: `${pointer}/examples/${name}`, example: example.value, schema: `${pointer}/schema` });
    for (const [key, inner] of Object.entries(node))
      if (key !== 'example' && key !== 'examples') search(inner, `${pointer}/${escapePointer(key)}`);
  };
  search(document, '');
  return found;
}

describe('docs/api.md#the-openapi-document: examples', () => {
  let api: TestApi;
  let document: Json;
  beforeAll(async () => {
    api = await startTestApi();
    document = api.json(await api.call({ method: 'GET', url: '/openapi.json' }));
  });
  afterAll(() => api.close());

  const problemsOf = (doc: Json) => {
    const validatorAt = schemaValidators(doc);
    return examplesOf(doc).flatMap(({ at, example, schema }) => {
      const validate = validatorAt(schema);
      return validate(example) ? [] : [`${decodeURIComponent(at)}: ${JSON.stringify(validate.errors)}`];
    });
  };

  it('shows an example of every request body and every success answer', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Json>>))
      for (const [method, operation] of Object.entries(item)) {
        const bodies = Object.entries(((operation.requestBody as Json | undefined)?.content ?? {}) as Json);
        for (const [type, media] of bodies)
          if ((media as Json).example === undefined) missing.push(`${method} ${path} request ${type}`);
        for (const [status, response] of Object.entries(operation.responses as Record<string, Json>))
          if (status.startsWith('2'))
            for (const [type, media] of Object.entries((response.content ?? {}) as Json))
              if ((media as Json).example === undefined) missing.push(`${method} ${path} ${status} ${type}`);
      }
    expect(missing).toEqual([]);
  });

  it('has every example valid against the schema beside it', () => {
    const operations = Object.values(document.paths as Json).flatMap((item) => Object.keys(item as Json)).length;
    expect(examplesOf(document).length, 'an example or more per operation').toBeGreaterThan(operations);
    expect(problemsOf(document)).toEqual([]);
  });

  it('names an example that is not valid against its schema, so the check above can fail', () => {
    const broken = structuredClone(document) as { paths: Record<string, Record<string, Json>> };
    const answer = (broken.paths['/v1/orders/{order_id}']!.get!.responses as Record<string, Json>)['200']!;
    const media = (answer.content as Record<string, Json>)['application/json']!;
    media.example = { ...(media.example as Json), quantity: '1' };
    expect(problemsOf(broken as unknown as Json)).toEqual([
      expect.stringContaining('/paths/~1v1~1orders~1{order_id}/get/responses/200/content/application~1json'),
    ]);
  });
});
