/**
 * The two multipart operations s3rver 3 lacks, answered the way S3 answers them, over s3rver's own
 * record of uploads in progress (`<directory>/<bucket>/._S3rver_uploads/<upload id>/`, holding the
 * object's `key` and its parts): AbortMultipartUpload (s3rver: 405 MethodNotAllowed), which
 * the store sends when an upload fails and the store's clean-up sends for abandoned uploads, and
 * ListMultipartUploads (s3rver: 501 NotImplemented), which finds those. Listings come two uploads a
 * page, so the store's paging is exercised; S3 may return fewer than asked for.
 */
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';

const PAGE = 2;

/** Answers the request if it is one of the two operations; false to leave it to s3rver. */
export async function answerMultipartGap(request: IncomingMessage, response: ServerResponse, directory: string): Promise<boolean> {
  const url = new URL(request.url ?? '/', 'http://s3.test');
  const [, bucket = '', ...keyParts] = url.pathname.split('/').map(decodeURIComponent);
  const key = keyParts.join('/');
  const uploads = join(directory, bucket, '._S3rver_uploads');
  if (request.method === 'DELETE' && key && url.searchParams.has('uploadId')) {
    // s3rver's upload ids are hex; anything else names no directory of its.
    const uploadId = (url.searchParams.get('uploadId') ?? '').replace(/[^0-9a-f]/g, '');
    const recorded = uploadId ? await readFile(join(uploads, uploadId, 'key'), 'utf8').catch(() => undefined) : undefined;
    if (recorded !== key) {
      xml(response, 404, `<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>`);
    } else {
      await rm(join(uploads, uploadId), { recursive: true, force: true });
      response.writeHead(204).end();
    }
    return true;
  }
  if (request.method === 'GET' && !key && url.searchParams.has('uploads')) {
    const prefix = url.searchParams.get('prefix') ?? '';
    const [keyMarker, idMarker] = [url.searchParams.get('key-marker') ?? '', url.searchParams.get('upload-id-marker') ?? ''];
    const all = [];
    for (const id of await readdir(uploads).catch(() => [])) {
      const recorded = await readFile(join(uploads, id, 'key'), 'utf8').catch(() => undefined);
      if (recorded === undefined || !recorded.startsWith(prefix)) continue;
      all.push({ key: recorded, id, initiated: (await stat(join(uploads, id, 'key'))).mtime });
    }
    all.sort((a, b) => (a.key === b.key ? a.id.localeCompare(b.id) : a.key.localeCompare(b.key)));
    const after = all.filter((u) => u.key > keyMarker || (u.key === keyMarker && u.id > idMarker));
    const page = after.slice(0, PAGE);
    const last = page.at(-1);
    const truncated = after.length > page.length && last !== undefined;
    xml(
      response,
      200,
      `<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${xmlText(bucket)}</Bucket>` +
        `<Prefix>${xmlText(prefix)}</Prefix><MaxUploads>${PAGE}</MaxUploads><IsTruncated>${truncated}</IsTruncated>` +
        (truncated ? `<NextKeyMarker>${xmlText(last.key)}</NextKeyMarker><NextUploadIdMarker>${last.id}</NextUploadIdMarker>` : '') +
        page
          .map(
            (u) =>
              `<Upload><Key>${xmlText(u.key)}</Key><UploadId>${u.id}</UploadId><Initiated>${u.initiated.toISOString()}</Initiated>` +
              '<StorageClass>STANDARD</StorageClass></Upload>',
          )
          .join('') +
        '</ListMultipartUploadsResult>',
    );
    return true;
  }
  return false;
}

function xml(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
}

function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
