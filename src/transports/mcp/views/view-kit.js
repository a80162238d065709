// What every view's script uses, inlined before it: elements built with text (never markup from the
// result), SVG elements, times and shares in words, and the common start of a render (the view
// emptied; an error result shown in its own words instead).
window.cuepointKit = (() => {
  const build = (node, attributes, text) => {
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const el = (tag, attributes = {}, text) => build(document.createElement(tag), attributes, text);
  const s = (tag, attributes = {}, text) => build(document.createElementNS('http://www.w3.org/2000/svg', tag), attributes, text);
  return {
    el,
    s,
    time: (seconds) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`,
    percent: (share) => `${Math.round(share * 100)}%`,
    /** The view emptied and the result's data; undefined once an error result has been shown. */
    begin(result, what) {
      const view = document.getElementById('view');
      view.replaceChildren();
      const data = result.structuredContent || {};
      if (!result.isError) return { view, data };
      view.append(el('p', { class: 'error', role: 'alert' }, data.error?.message || `The ${what} could not be read.`));
      return undefined;
    },
  };
})();
