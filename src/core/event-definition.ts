/**
 * How an area declares one of its event types (in its `<area>.events.ts`): the schema of the event's
 * `data`, and the words the OpenAPI document and docs/webhooks.md show for it. The event catalog
 * (src/event-catalog.ts) assembles every area's declarations.
 */
import type { TObject } from 'typebox';

export interface EventDefinition {
  /** One line: the OpenAPI summary. */
  summary: string;
  /** When it is sent, for the OpenAPI description. */
  when: string;
  data: TObject;
}
