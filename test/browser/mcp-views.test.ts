/**
 * The views tools render as inside an assistant (MCP Apps, issue 29), in Chromium, as a host shows
 * them: the MCP SDK client lists the tools (the tool names its view in `_meta.ui`), reads the view's
 * `ui://` resource, and a host page puts the document in a sandboxed iframe (srcdoc, scripts only, no
 * network but its parent) and speaks the protocol to it: answers ui/initialize, then sends the tool's
 * input and its real result. The view draws the result, names what it shows in words, and passes axe
 * at 375 and 1440 px. Clients without views get the same tool, whose JSON is complete.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { connectMcp } from '../helpers/mcp-client.ts';
import { collect, type Event, pageView, viewer } from '../helpers/viewing.ts';
import { assertAccessible } from './accessibility.ts';
import { launchChromium } from './chromium.ts';

/** A host as small as the protocol allows: the iframe, the handshake's answer, then the tool's input and result. */
const HOST_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Assistant</title>
<style>body{margin:0;font:14px system-ui}iframe{border:1px solid #d1d5db;border-radius:8px;width:100%;display:block}</style></head>
<body><main><h1 style="font-size:1rem;margin:8px">Assistant</h1><iframe id="view" title="Tool result view" sandbox="allow-scripts"></iframe></main>
<script>
const frame = document.getElementById('view');
window.hostLog = [];
window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow) return;
  const message = event.data;
  window.hostLog.push(message.method || 'response');
  const reply = (payload) => frame.contentWindow.postMessage({ jsonrpc: '2.0', ...payload }, '*');
  if (message.method === 'ui/initialize') {
    reply({ id: message.id, result: { protocolVersion: '2026-01-26', hostInfo: { name: 'test-host', version: '1' }, hostCapabilities: {}, hostContext: {} } });
  } else if (message.method === 'ui/notifications/initialized') {
    reply({ method: 'ui/notifications/tool-input', params: { arguments: window.toolInput } });
    reply({ method: 'ui/notifications/tool-result', params: window.toolResult });
  } else if (message.method === 'tools/call') {
    window.hostCallTool(message.params).then((result) => reply({ id: message.id, result }));
  } else if (message.method === 'ui/notifications/size-changed') {
    frame.style.height = message.params.height + 'px';
  }
});
window.showView = (html, input, result) => { window.toolInput = input; window.toolResult = result; frame.srcdoc = html; };
</script></body></html>`;

async function watchedVideo(harness: TestApp, workspace: Awaited<ReturnType<TestApp['workspace']>>): Promise<string> {
  const videoId = await workspace.addVideo({ title: 'Setup guide', duration_seconds: 100 });
  const progress = (...ranges: [number, number][]): Event => ({ type: 'progress', ranges });
  // Twenty views (enough for key moments): all watch the first half, six replay 20–30 s, half watch to the end.
  for (let i = 0; i < 20; i++) {
    const batches: Event[][] = [[progress([0, 50])]];
    if (i < 6) batches.push([{ type: 'seek', from: 30, to: 20 }, progress([20, 30])]);
    if (i >= 10) batches.push([progress([50, 100])]);
    const view = pageView(videoId);
    for (const [sequence, events] of batches.entries()) {
      const res = await collect(harness, { token: view.token, viewer_id: viewer(`v${i}`), sequence: sequence + 1, events });
      assert.equal(res.status, 200);
    }
  }
  return videoId;
}

/** Shows a view in the host page; the host proxies the view's tools/call to `client`, as a real host does. */
async function show(page: Page, html: string, input: unknown, result: unknown, client?: Awaited<ReturnType<typeof connectMcp>>) {
  if (client)
    await page.exposeFunction('hostCallTool', (params: { name: string; arguments?: Record<string, unknown> }) => client.callTool(params));
  await page.setContent(HOST_PAGE);
  await page.evaluate(
    ([h, i, r]) => (globalThis as unknown as { showView: (...a: unknown[]) => void }).showView(h, i, r),
    [html, input, result],
  );
}

test('get_video_retention renders as a view inside the assistant, from its real result', { timeout: 300_000 }, async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await watchedVideo(harness, ws);
  const client = await connectMcp(t, harness.app, ws.key);

  const tool = (await client.listTools()).tools.find((candidate) => candidate.name === 'get_video_retention');
  const uri = (tool?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
  assert.equal(uri, 'ui://cuepoint/video-retention.html');
  const listed = await client.listResources();
  assert.ok(listed.resources.some((resource) => resource.uri === uri && resource.mimeType === 'text/html;profile=mcp-app'));
  const read = await client.readResource({ uri: uri as string });
  const content = read.contents[0] as { text: string; mimeType: string; _meta?: { ui?: { csp?: object } } };
  assert.equal(content.mimeType, 'text/html;profile=mcp-app');
  assert.deepEqual(content._meta?.ui?.csp, {}, 'the view asks for no network at all');
  assert.doesNotMatch(
    content.text,
    /<script[^>]+src=|<link[^>]+href=|<img|fetch\(|XMLHttpRequest|WebSocket|EventSource/,
    'self-contained: nothing to fetch',
  );
  await assert.rejects(client.readResource({ uri: 'ui://cuepoint/nothing.html' }), /Resource not found/);

  const input = { video_id: videoId };
  const result = await client.callTool({ name: 'get_video_retention', arguments: input });
  assert.equal((result.structuredContent as { views: number }).views, 20, 'the JSON stays complete for clients without views');

  const chromium = await launchChromium(t);
  for (const width of [1440, 375]) {
    const context = await chromium.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    await show(page, content.text, input, result, client);
    const view = page.frameLocator('#view');
    await view.getByRole('heading', { name: 'Setup guide' }).waitFor();
    await view.getByText('20 views · 75% watched on average').waitFor();
    assert.equal(await view.getByRole('img', { name: 'Retention of Setup guide' }).count(), 1);
    await view.getByText('0:50–0:51: from 100% to 50% still watching (50% of views lost)').waitFor();
    await view.getByText('R1: 0:20–0:30, played 1.3 times per view (0.8 elsewhere)').waitFor();
    // Key moments, asked of get_video_key_moments through the host.
    await view.getByRole('heading', { name: 'Key moments' }).waitFor();
    await view.getByText(/^M2: Played again, 0:20–0:30: /).waitFor();
    await view.getByText(/^M1: Viewers left, 0:50–0:51: /).waitFor();
    const log = (await page.evaluate('window.hostLog')) as string[];
    assert.deepEqual(log.slice(0, 2), ['ui/initialize', 'ui/notifications/initialized']);
    assert.ok(log.includes('ui/notifications/size-changed'), 'the view tells the host its height');
    await assertAccessible(page, `the retention view at ${width} px`);
    await context.close();
  }

  // An error result shows the error's words; an empty curve says why it is empty.
  const context = await chromium.newContext({ viewport: { width: 800, height: 600 } });
  const missing = await client.callTool({ name: 'get_video_retention', arguments: { video_id: '00000000-0000-4000-8000-000000000000' } });
  const errorPage = await context.newPage();
  await show(errorPage, content.text, {}, missing);
  await errorPage
    .frameLocator('#view')
    .getByRole('alert')
    .filter({ hasText: /not found|No video/i })
    .waitFor();
  const unwatched = await ws.addVideo({ title: 'New video', duration_seconds: 60 });
  const emptyPage = await context.newPage();
  await show(emptyPage, content.text, {}, await client.callTool({ name: 'get_video_retention', arguments: { video_id: unwatched } }));
  await emptyPage
    .frameLocator('#view')
    .getByText(/No views yet/)
    .waitFor();
  await context.close();
});

/** Renders `html` in the host page at `width` with the tool's `input` and `result`; answers the page. */
async function rendered(
  chromium: Awaited<ReturnType<typeof launchChromium>>,
  html: string,
  input: unknown,
  result: unknown,
  width: number,
) {
  const context = await chromium.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await show(page, html, input, result);
  return { page, view: page.frameLocator('#view'), close: () => context.close() };
}

async function viewOf(client: Awaited<ReturnType<typeof connectMcp>>, tool: string): Promise<string> {
  const found = (await client.listTools()).tools.find((candidate) => candidate.name === tool);
  const uri = (found?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri as string;
  assert.match(uri, /^ui:\/\/cuepoint\//, `${tool} names its view`);
  return ((await client.readResource({ uri })).contents[0] as { text: string }).text;
}

test('get_lead_journey and get_route render as views: the story in words, the graph with its shares', { timeout: 300_000 }, async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { mask_pii: false } });
  const lead = await harness.request('PUT', '/v1/leads', {
    token: ws.key,
    body: { email: 'ada@example.com', name: 'Ada Lovelace', notes: 'Asked about the annual plan.' },
  });
  assert.ok(lead.status < 300, lead.raw);
  const leadId = lead.body.lead_id as string;
  const outcome = await harness.request('POST', '/v1/outcomes', {
    token: ws.key,
    body: { kind: 'purchase', amount: 12_000, currency: 'USD', email: 'ada@example.com' },
  });
  assert.equal(outcome.status, 201, outcome.raw);

  await ws.addVideo({ title: 'Welcome' });
  await ws.addVideo({ title: 'Pro plan' });
  const route = await harness.request('POST', '/v1/routes', { token: ws.key, body: { entry_video: 'Welcome', name: 'Which plan?' } });
  assert.equal(route.status, 201, route.raw);
  const wired = await harness.request('POST', `/v1/routes/${route.body.route_id}/branches`, {
    token: ws.key,
    body: {
      question: 'What brings you here?',
      branches: [
        { label: 'Pro', to_video: 'Pro plan' },
        { label: 'Just looking', end: true },
      ],
    },
  });
  assert.equal(wired.status, 200, wired.raw);

  const client = await connectMcp(t, harness.app, ws.key);
  const journeyHtml = await viewOf(client, 'get_lead_journey');
  const routeHtml = await viewOf(client, 'get_route');
  const journeyInput = { lead_id: leadId };
  const journey = await client.callTool({ name: 'get_lead_journey', arguments: journeyInput });
  const routeInput = { route_id: route.body.route_id };
  const graph = await client.callTool({ name: 'get_route', arguments: routeInput });
  const chromium = await launchChromium(t);

  for (const width of [1440, 375]) {
    const shown = await rendered(chromium, journeyHtml, journeyInput, journey, width);
    await shown.view.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();
    await shown.view.getByText('Asked about the annual plan.').waitFor();
    await shown.view.getByText('$120.00, succeeded').waitFor();
    assert.equal((await shown.view.getByRole('list', { name: 'Journey, oldest first' }).getByRole('listitem').count()) >= 2, true);
    await assertAccessible(shown.page, `the lead journey view at ${width} px`);
    await shown.close();

    const drawn = await rendered(chromium, routeHtml, routeInput, graph, width);
    await drawn.view.getByRole('heading', { name: 'Which plan?' }).waitFor();
    assert.equal(await drawn.view.getByRole('img', { name: /The steps of Which plan\?/ }).count(), 1);
    await drawn.view.getByText('“Pro” plays “Pro plan”: chosen 0 times (0%)').waitFor();
    await drawn.view.getByText('“Just looking” ends the route: chosen 0 times (0%)').waitFor();
    await assertAccessible(drawn.page, `the route view at ${width} px`);
    await drawn.close();
  }
});
