// deferred (Alder Scientific Publishing): a journal page's "Journal metrics" panel reads "Loading metrics…" until,
// 800 ms after the page's load event, this script fetches <root>api/metrics/<slug>.json and writes the journal's
// Impact Factor, CiteScore and SJR into it (a metric the journal has none of gets no row). The panel then carries
// data-state="ready".
(() => {
  'use strict';
  const DELAY_MS = 800;
  const ROWS = [
    ['impactFactor', 'Impact Factor', 3],
    ['citeScore', 'CiteScore', 1],
    ['sjr', 'SJR', 3],
  ];
  const panel = document.getElementById('journal-metrics');
  if (!panel) {
    return;
  }
  const root = location.pathname.slice(0, location.pathname.indexOf('/journal/') + 1);
  const slug = panel.dataset.journal;

  const render = (data) => {
    const heading = document.createElement('h2');
    heading.textContent = 'Journal metrics';
    const shown = ROWS.filter(([key]) => data[key] !== null && data[key] !== undefined);
    if (!shown.length) {
      const none = document.createElement('p');
      none.textContent = 'No metrics are available for this journal yet.';
      panel.replaceChildren(heading, none);
      return;
    }
    const list = document.createElement('dl');
    list.className = 'metrics';
    for (const [key, label, places] of shown) {
      const row = document.createElement('div');
      row.className = 'metric';
      const term = document.createElement('dt');
      term.textContent = label;
      const value = document.createElement('dd');
      value.textContent = Number(data[key]).toFixed(places);
      row.append(term, value);
      list.appendChild(row);
    }
    const note = document.createElement('p');
    note.className = 'metrics-note';
    note.textContent = `Metrics for ${data.year}. Sources: Clarivate, Scopus, SCImago.`;
    panel.replaceChildren(heading, list, note);
  };

  const load = async () => {
    const response = await fetch(`${root}api/metrics/${encodeURIComponent(slug)}.json`, {
      headers: { Accept: 'application/json' },
    });
    if (!response.ok) {
      throw new Error(`HTTP ${response.status}`);
    }
    render(await response.json());
    panel.dataset.state = 'ready';
  };

  const start = () =>
    setTimeout(() => {
      load().catch(() => {
        panel.querySelector('.loading').textContent = 'Metrics are unavailable right now.';
        panel.dataset.state = 'error';
      });
    }, DELAY_MS);

  if (document.readyState === 'complete') {
    start();
  } else {
    window.addEventListener('load', start);
  }
})();
