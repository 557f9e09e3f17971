// Request bodies are JSON, strictly (docs/api.md#errors): an empty body is no body (routes whose body is optional);
// another media type is 415, and so is a compressed body (Content-Encoding other than identity: the sandbox does not
// inflate bodies, and a gzip body read as JSON had its bytes echoed in the error); a body nested more than
// MAX_BODY_DEPTH levels is 400 before it is parsed; anything unparsable is 400 `invalid_json`, the parser's message
// escaped and bounded (docs/api.md#what-an-error-echoes); and so is a `__proto__` or `constructor.prototype` key
// (prototype poisoning, refused as Fastify's own parser refuses it).
import secureJson from 'secure-json-parse';
import type { FastifyInstance } from 'fastify';
import { echoed } from '../../core/validation/echo.js';
import { ApiError } from './api-error.js';
import { MAX_BODY_DEPTH, nestsDeeperThan } from './body-depth.js';

/** How much of the JSON parser's own message an `invalid_json` answer shows. */
const PARSER_MESSAGE_MAX_CHARS = 200;

export function installJsonParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers(); // text/plain too: a body that is not JSON is 415 (docs/api.md#errors)
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    const encoding = request.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity')
      return done(
        new ApiError(415, 'unsupported_media_type', 'send the body uncompressed: no Content-Encoding, or identity'),
        undefined,
      );
    const body = String(text);
    if (body.trim() === '') return done(null, undefined);
    if (nestsDeeperThan(body, MAX_BODY_DEPTH))
      return done(
        new ApiError(400, 'invalid_request', `body: nested more than ${MAX_BODY_DEPTH} levels deep`, [
          { field: 'body', message: `nested more than ${MAX_BODY_DEPTH} levels deep` },
        ]),
        undefined,
      );
    try {
      done(null, secureJson.parse(body, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (error) {
      const message = echoed((error as Error).message, PARSER_MESSAGE_MAX_CHARS);
      done(new ApiError(400, 'invalid_json', `the body is not valid JSON: ${message}`), undefined);
    }
  });
}
