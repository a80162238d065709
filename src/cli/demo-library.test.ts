/**
 * The demo library reads like a real one (issue 26): no video stuck in processing, failures with
 * reasons, a description of its own for every video that says more than its title, and the videos
 * the routes play ready, served and older than the 90 days of visits.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { demoVideos } from './demo-library.ts';
import { DEMO_ROUTE_TITLES, DEMO_ROUTES } from './demo-route-plans.ts';

test('statuses a live library has, a description per video, and the routes’ videos ready and old enough', () => {
  const videos = demoVideos();
  const statuses = new Set(videos.map((video) => video.status));
  assert.deepEqual([...statuses].sort(), ['failed', 'ready', 'waiting_upload']);
  for (const video of videos) {
    if (video.status === 'failed') assert.ok(video.failureReason, `${video.title} says why it failed`);
    if (video.status === 'waiting_upload') assert.equal(video.ageDays, 0, `${video.title}: an unfinished upload is today's`);
    assert.ok(
      !video.description.toLowerCase().includes(video.title.toLowerCase()),
      `${video.title}: the description is not the title again`,
    );
  }
  assert.equal(new Set(videos.map((video) => video.description)).size, videos.length, 'every description is its own');

  const byTitle = new Map(videos.map((video) => [video.title, video]));
  for (const title of DEMO_ROUTE_TITLES) {
    const video = byTitle.get(title);
    assert.ok(video, `${title} is in the library`);
    assert.deepEqual([video.status, video.archived, video.ageDays > 90], ['ready', false, true], title);
  }
  const setUp = DEMO_ROUTES.find((route) => route.name === 'Get set up in five minutes');
  assert.equal(setUp?.steps[0]?.video, 'Setting up your account', 'a route opens on what its name promises');
});
