/**
 * The worker's fold loop: folds collected viewing into the sessions and rollups
 * (domains/viewing/viewing-fold.ts) every `intervalMs`, and straight again while a backlog remains,
 * so a batch reaches every analytics answer within about one interval plus a fold. Several workers
 * may run it: folds take turns on the cursor lock. A failed fold (the database away) changed
 * nothing; it is logged and tried again a second later (not every tick, which would fill the log).
 */
import type { Kysely } from 'kysely';
import type { Log } from '../core/context.ts';
import { abortableSleep } from '../core/values/abortable-sleep.ts';
import type { Database } from '../db/tables/index.ts';
import { foldViewing } from '../domains/viewing/index.ts';

const RETRY_MS = 1000;

export interface ViewingFolder {
  /** Finishes the fold under way, if any, and stops. */
  stop(): Promise<void>;
}

export function startViewingFolder(options: { db: Kysely<Database>; log: Log; intervalMs: number }): ViewingFolder {
  const stopping = new AbortController();
  const loop = async () => {
    while (!stopping.signal.aborted) {
      let wait = options.intervalMs;
      try {
        const { more } = await foldViewing(options.db);
        if (more) continue;
      } catch (err) {
        options.log.warn({ err }, 'viewing fold failed; trying again');
        wait = Math.max(wait, RETRY_MS);
      }
      await abortableSleep(wait, stopping.signal);
    }
  };
  const running = loop();
  return {
    async stop() {
      stopping.abort();
      await running;
    },
  };
}
