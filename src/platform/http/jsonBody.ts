/**
 * The JSON body parser: Fastify's own (secure-json-parse, refusing __proto__ and constructor.prototype rather than
 * merging them), but telling the client which of the two went wrong: text that is not JSON, or JSON with a
 * forbidden key. Fastify's default parser answers "not valid JSON" for both.
 */
import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { ApiError } from './errors';

export const EMPTY_BODY_MESSAGE = 'The request body is empty; a JSON object is expected.';
export const INVALID_JSON_MESSAGE = 'The request body is not valid JSON.';
export const FORBIDDEN_KEY_MESSAGE = 'The request body must not contain the keys __proto__ or constructor.prototype.';

export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.length === 0) return done(new ApiError('invalid-json', EMPTY_BODY_MESSAGE), undefined);
    try {
      done(null, secureJson.parse(text, { protoAction: 'error', constructorAction: 'error' }));
    } catch (error) {
      const forbidden =
        error instanceof SyntaxError && /forbidden (prototype|constructor) property/.test(error.message);
      done(
        forbidden
          ? new ApiError('invalid-input', FORBIDDEN_KEY_MESSAGE)
          : new ApiError('invalid-json', INVALID_JSON_MESSAGE),
        undefined,
      );
    }
  });
}
