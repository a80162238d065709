/**
 * How every public HTML surface (watch and embed pages, the route player, the booking page, the
 * invitee's booking links) serves its script and answers a database outage, written once.
 */
import { readFileSync } from 'node:fs';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { outageError } from '../../../core/pipeline/unavailable.ts';

/** A page's script from this folder: cached five minutes (pages are not versioned), never sniffed. */
export function servePageScript(app: FastifyInstance, path: string, fileName: string): void {
  const script = readFileSync(new URL(`../assets/${fileName}`, import.meta.url));
  app.get(path, (_request, reply) =>
    reply
      .header('Content-Type', 'text/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=300')
      .header('X-Content-Type-Options', 'nosniff')
      .send(script),
  );
}

export interface OutagePage {
  headers: Record<string, string>;
  body: string;
}

/**
 * An error handler for a scope of pages: a viewer's browser gets the surface's own "temporarily
 * unavailable" page (503 with Retry-After) while the database is away, not the API's JSON error;
 * every other error goes on to the app's handler.
 */
export function answerOutageWithPage(page: (request: FastifyRequest) => OutagePage) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const outage = outageError(error);
    if (!outage) throw error;
    request.log.warn({ err: error }, 'database unavailable');
    const { headers, body } = page(request);
    return reply.code(outage.status).headers(headers).headers(outage.headers).send(body);
  };
}
