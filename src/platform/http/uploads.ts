/**
 * File uploads (the owner's media library): a form posted without JavaScript (multipart/form-data) and a file sent
 * as the request body (application/octet-stream or image/*, the JSON API's upload). No dependency is added: a whole
 * form is parsed by the platform's own Fetch implementation (undici's `Response.formData()`, part of Node).
 *
 * The limit is the caller's (a site's setting, 0 for a request that may not upload): the bytes past it are read and
 * dropped, up to a hard bound, so a browser that sent too large a file still reads the answer that says so (a server
 * that stops reading makes the browser show a connection error instead). Past the limit the body is only its start:
 * the form's fields before the file (the crumb) and the file's name, with `complete: false`, so the route can say
 * 'The file {fileName} is too large…'.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors';

export interface UploadedFile {
  fileName: string;
  /** The file's bytes; empty when it was larger than the limit (`complete: false`). */
  bytes: Buffer;
  /** Bytes received (for a form past the limit: the whole body's size, the closest known to the file's). */
  size: number;
  complete: boolean;
}

/** A form's fields (text) and files, by name; the first of repeated names. */
export type UploadForm = Record<string, string | UploadedFile>;

/** Kept besides the limit: a form's other fields and the parts' headers. */
const FORM_OVERHEAD = 64 * 1024;
/** Read and dropped past the limit, at most; then the connection is cut. */
const DRAIN_BOUND = 128 * 1024 * 1024;

export const isUploadedFile = (value: unknown): value is UploadedFile =>
  typeof value === 'object' && value !== null && 'bytes' in value && 'fileName' in value;

/** Reads `stream` keeping at most `keep` bytes; true in `over` when there was more. */
async function readBounded(
  stream: NodeJS.ReadableStream,
  keep: number,
): Promise<{ bytes: Buffer; total: number; over: boolean }> {
  const chunks: Buffer[] = [];
  let kept = 0;
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > keep + DRAIN_BOUND) {
      (stream as unknown as { destroy?: () => void }).destroy?.();
      throw new ApiError('payload-too-large', `The request body is larger than ${keep + DRAIN_BOUND} bytes.`);
    }
    if (kept < keep) {
      const part = chunk.subarray(0, keep - kept);
      chunks.push(part);
      kept += part.length;
    }
  }
  return { bytes: Buffer.concat(chunks), total, over: total > keep };
}

const boundaryOf = (contentType: string): string | undefined =>
  /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)?.slice(1).find(Boolean);

/**
 * The fields at the start of a form cut short: each whole text part, and the name of the first file. Browsers send a
 * form's parts in its order, so the crumb (the first field) is there.
 */
export function formStart(head: Buffer, contentType: string, size: number): UploadForm {
  const boundary = boundaryOf(contentType);
  if (!boundary) return {};
  const text = head.toString('latin1');
  const form: UploadForm = {};
  for (const part of text.split(`--${boundary}`).slice(1)) {
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd === -1) break;
    const headers = part.slice(0, headerEnd);
    const name = /name="([^"]*)"/i.exec(headers)?.[1];
    const fileName = /filename="([^"]*)"/i.exec(headers)?.[1];
    if (name === undefined || name in form) continue;
    const decode = (s: string) => Buffer.from(s, 'latin1').toString('utf8');
    if (fileName !== undefined) {
      // Browsers write '"' as %22 in the name (and leave other bytes as they are).
      form[name] = { fileName: decode(fileName.replace(/%22/g, '"')), bytes: Buffer.alloc(0), size, complete: false };
      break;
    }
    if (!part.endsWith('\r\n')) break;
    form[name] = decode(part.slice(headerEnd + 4, -2));
  }
  return form;
}

/**
 * Adds the two upload parsers to `scope` (register it around the upload routes only): `limitOf(request)` says how
 * many bytes of file the request may send (its site's setting; 0 when it may not upload).
 */
export function registerUploadParsers(
  scope: FastifyInstance,
  limitOf: (request: FastifyRequest) => Promise<number>,
): void {
  scope.addContentTypeParser('multipart/form-data', async (request: FastifyRequest, payload: IncomingMessage) => {
    const contentType = request.headers['content-type'] ?? '';
    const limit = await limitOf(request);
    const read = await readBounded(payload, limit + FORM_OVERHEAD);
    if (read.over) return formStart(read.bytes, contentType, read.total);
    let data: FormData;
    try {
      data = await new Response(new Uint8Array(read.bytes), { headers: { 'content-type': contentType } }).formData();
    } catch {
      throw new ApiError('invalid-input', 'The form could not be read (multipart/form-data expected).');
    }
    const form: UploadForm = {};
    for (const [name, value] of data.entries()) {
      if (name in form) continue;
      if (typeof value === 'string') form[name] = value;
      else {
        const bytes = Buffer.from(await value.arrayBuffer());
        form[name] = {
          fileName: value.name,
          bytes: bytes.length > limit ? Buffer.alloc(0) : bytes,
          size: bytes.length,
          complete: bytes.length <= limit,
        };
      }
    }
    return form;
  });
  const raw = async (request: FastifyRequest, payload: IncomingMessage): Promise<UploadedFile> => {
    const limit = await limitOf(request);
    const read = await readBounded(payload, limit);
    return { fileName: '', bytes: read.over ? Buffer.alloc(0) : read.bytes, size: read.total, complete: !read.over };
  };
  scope.addContentTypeParser('application/octet-stream', raw);
  scope.addContentTypeParser(/^image\/[a-z0-9.+-]+$/i, raw);
}
