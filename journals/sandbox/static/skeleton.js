// skeleton (Sable Research Journals): a journal page's "Metrics" panel (#journal-metrics) holds an SVG spinner and
// empty skeleton lines, no text. 1.2 s after the page's load event this script fetches
// <root>api/journals/<data-code>/metrics and replaces them with the journal's Impact Factor, CiteScore, SJR and SNIP:
// tiles (value, then label) when data-layout="tiles", "CiteScore 2024: 5.1" lines when data-layout="lines". A metric
// the API gives as null has no tile or line, unless the API lists it as unavailable ("not available"). The panel then
// carries data-state="ready".
(() => {
  'use strict';
  const DELAY_MS = 1200;
  const METRICS = [
    ['impactFactor', 'Impact Factor', 3],
    ['citeScore', 'CiteScore', 1],
    ['sjr', 'SJR', 3],
    ['snip', 'SNIP', 3],
  ];
  const panel = document.getElementById('journal-metrics');
  if (!panel) {
    return;
  }
  const root = new URL(document.currentScript.src, location.href).pathname.replace(/static\/js\/[^/]+$/, '');

  const node = (tag, className, text) => {
    const element = document.createElement(tag);
    if (className) {
      element.className = className;
    }
    if (text !== undefined) {
      element.textContent = text;
    }
    return element;
  };

  const shown = (data) =>
    METRICS.filter(([key]) => (data[key] !== null && data[key] !== undefined) || data.unavailable.indexOf(key) >= 0).map(
      ([key, label, places]) => ({
        label,
        text: data[key] === null || data[key] === undefined ? 'not available' : Number(data[key]).toFixed(places),
      })
    );

  const tiles = (data) => {
    const grid = node('div', 'metric-tiles');
    shown(data).forEach(({ label, text }) => {
      const tile = node('div', 'metric-tile');
      tile.append(node('div', 'metric-tile__value', text), node('div', 'metric-tile__label', label), node('div', 'metric-tile__year', String(data.year)));
      grid.appendChild(tile);
    });
    return grid;
  };

  const lines = (data) => {
    const list = node('ul', 'metric-lines');
    shown(data).forEach(({ label, text }) => {
      const item = node('li', 'metric-line', `${label} ${data.year}: `);
      item.appendChild(node('strong', '', text));
      list.appendChild(item);
    });
    return list;
  };

  const load = async () => {
    const response = await fetch(`${root}api/journals/${encodeURIComponent(panel.dataset.code)}/metrics`, {
      headers: { Accept: 'application/json' },
    });
    if (!response.ok) {
      throw new Error(`HTTP ${response.status}`);
    }
    const data = await response.json();
    const body = panel.dataset.layout === 'lines' ? lines(data) : tiles(data);
    const updated = node('p', 'c-metrics__updated', `Updated June ${data.year + 1}`);
    panel.replaceChildren(body, updated);
    panel.removeAttribute('aria-busy');
    panel.dataset.state = 'ready';
  };

  const start = () =>
    setTimeout(() => {
      load().catch(() => {
        panel.replaceChildren(node('p', 'c-metrics__error', 'Metrics are unavailable right now.'));
        panel.removeAttribute('aria-busy');
        panel.dataset.state = 'error';
      });
    }, DELAY_MS);

  if (document.readyState === 'complete') {
    start();
  } else {
    window.addEventListener('load', start);
  }
})();
