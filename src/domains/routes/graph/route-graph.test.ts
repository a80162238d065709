/** The graph rules get_route reports and going live enforces, on graphs built by hand. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChoiceTarget } from '../../../db/tables/index.ts';
import { type GraphStep, graphProblems, type VideoState } from './route-graph.ts';

/** For a step choice `to` is the step it plays; for a booking choice, `inactive` makes its event type inactive. */
type Wiring = [label: string, target: ChoiceTarget, to?: string][];

function step(id: string, position: number, wiring: Wiring = [], state: VideoState = 'ready'): GraphStep {
  return {
    id,
    position,
    video: { id: `video-${id}`, title: `Video ${id}`, state, durationSeconds: 30 },
    question: wiring.length > 0 ? 'Which one?' : null,
    askAtSeconds: null,
    choices: wiring.map(([label, target, to], i) => ({
      id: `${id}-choice-${i}`,
      label,
      target,
      toStepId: target === 'step' ? (to as string) : null,
      url: target === 'url' ? 'https://example.com/' : null,
      eventType: target === 'booking' ? { id: `event-type-${i}`, name: 'Intro call', active: to !== 'inactive' } : null,
    })),
  };
}

const codes = (steps: GraphStep[]) => graphProblems({ steps }).map((problem) => `${problem.code}:${problem.stepId}`);

test('a graph whose every step is reachable and can end has no problems', () => {
  assert.deepEqual(
    codes([
      step('a', 0, [
        ['Pro', 'step', 'b'],
        ['Team', 'step', 'c'],
        ['Neither', 'url'],
      ]),
      step('b', 1, [
        ['Back', 'step', 'a'],
        ['Talk to us', 'lead_form'],
      ]),
      step('c', 2),
    ]),
    [],
  );
});

test('a step nothing leads to is unreachable, and a loop without a way out cannot end', () => {
  assert.deepEqual(codes([step('a', 0, [['Go', 'step', 'b']]), step('b', 1, [['Back', 'step', 'a']]), step('c', 2, [['Done', 'end']])]), [
    'no_way_to_end:a',
    'no_way_to_end:b',
    'unreachable_step:c',
  ]);
});

test('a step whose every choice plays it again is a self-loop; one way out is enough', () => {
  assert.deepEqual(codes([step('a', 0, [['Again', 'step', 'a']])]), ['self_loop:a']);
  assert.deepEqual(
    codes([
      step('a', 0, [
        ['Again', 'step', 'a'],
        ['Done', 'end'],
      ]),
    ]),
    [],
  );
});

test('a step whose video is archived or not ready is broken, and the message says which', () => {
  const problems = graphProblems({ steps: [step('a', 0, [['Go', 'step', 'b']]), step('b', 1, [], 'archived')] });
  assert.deepEqual(
    problems.map((problem) => problem.code),
    ['broken_video'],
  );
  assert.match(problems[0]?.message ?? '', /step 2 \(“Video b”\): its video is archived/);
  assert.match(graphProblems({ steps: [step('a', 0, [], 'processing')] })[0]?.message ?? '', /is not ready \(processing\)/);
});

test('a booking choice is a way out; one opening an inactive event type is a problem of its step', () => {
  assert.deepEqual(codes([step('a', 0, [['Book a call', 'booking']])]), []);
  assert.deepEqual(
    codes([
      step('a', 0, [
        ['Book a call', 'booking', 'inactive'],
        ['More', 'step', 'b'],
      ]),
      step('b', 1, [['Back', 'step', 'a']]),
    ]),
    ['inactive_event_type:a'],
    'the inactive booking page is named, and the choice still leaves the route (no no_way_to_end)',
  );
  const [problem] = graphProblems({ steps: [step('a', 0, [['Book a call', 'booking', 'inactive']])] });
  assert.match(problem?.message ?? '', /“Book a call” opens the booking page of “Intro call”, which is inactive/);
});
