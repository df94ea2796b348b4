// scriptapp: a journal page's metrics, fetched from <root>api/journal/<slug>.json and written into the empty #root
// as label/value rows of a table; #root then carries data-state="ready".
(() => {
  'use strict';
  const root = document.getElementById('root');
  const path = location.pathname;
  const site = path.slice(0, path.indexOf('/journal/') + 1);
  const slug = path.slice(site.length + 'journal/'.length).replace(/\/$/, '');

  const render = (data) => {
    const heading = document.createElement('h2');
    heading.textContent = 'At a glance';
    const table = document.createElement('table');
    table.className = 'journal-metrics';
    const body = document.createElement('tbody');
    for (const row of data.rows) {
      const tr = document.createElement('tr');
      const label = document.createElement('th');
      label.setAttribute('scope', 'row');
      label.textContent = row.label;
      const value = document.createElement('td');
      value.textContent = row.value;
      tr.append(label, value);
      body.appendChild(tr);
    }
    table.appendChild(body);
    root.replaceChildren(heading, table);
  };

  const load = async () => {
    const response = await fetch(`${site}api/journal/${encodeURIComponent(slug)}.json`);
    if (!response.ok) {
      throw new Error(`HTTP ${response.status}`);
    }
    render(await response.json());
    root.dataset.state = 'ready';
  };

  load().catch((error) => {
    root.textContent = `This journal's details could not be loaded (${error.message}).`;
    root.dataset.state = 'error';
  });
})();
