// The view side of MCP Apps (the ext-apps protocol, revision 2026-01-26), written out because it is a
// handful of messages and each view must be one self-contained document: the package's own App class
// bundles to 540 KB. The view asks the host to begin (ui/initialize), says it is ready, renders each
// tool result the host sends with window.cuepointView.render, and reports its size. It reaches nothing
// but the host: no network at all.
(() => {
  const host = window.parent;
  const pending = new Map();
  let nextId = 1;
  const send = (message) => host.postMessage({ jsonrpc: '2.0', ...message }, '*');
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      send({ id, method, params });
    });
  let lastSize = '';
  const reportSize = () => {
    const size = { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight };
    if (JSON.stringify(size) === lastSize) return;
    lastSize = JSON.stringify(size);
    send({ method: 'ui/notifications/size-changed', params: size });
  };
  window.addEventListener('message', (event) => {
    const message = event.data;
    if (event.source !== host || !message || message.jsonrpc !== '2.0') return;
    if (message.method === undefined && pending.has(message.id)) {
      const { resolve, reject } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) reject(new Error(message.error.message));
      else resolve(message.result);
    } else if (message.method === 'ui/notifications/tool-result') {
      window.cuepointView.render(message.params || {});
      reportSize();
    } else if (message.id !== undefined && (message.method === 'ping' || message.method === 'ui/resource-teardown')) {
      send({ id: message.id, result: {} });
    }
  });
  // What a view may ask of the server, through the host (it proxies tools/call): more of the same
  // workspace's data, with the same credential and scopes as the tool that opened the view.
  let ready;
  const initialized = new Promise((resolve) => {
    ready = resolve;
  });
  window.cuepointHost = {
    callTool: (name, args) => initialized.then(() => request('tools/call', { name, arguments: args })),
  };
  request('ui/initialize', { appInfo: { name: 'cuepoint-view', version: '1.0.0' }, appCapabilities: {}, protocolVersion: '2026-01-26' })
    .then(() => {
      send({ method: 'ui/notifications/initialized', params: {} });
      ready();
      reportSize();
      new ResizeObserver(reportSize).observe(document.body);
    })
    .catch(() => {
      // Not inside a host that speaks MCP Apps: the view stays as it is, saying it waits for a result.
    });
})();
