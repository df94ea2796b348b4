// scriptlist: one page of a letter's journals, fetched as JSON and written into the empty #app of the shell.
// The shell's URL is <root>journals/<LETTER>[?page=N]; the list comes from <root>api/journals?letter=L&page=N.
(() => {
  'use strict';
  const app = document.getElementById('app');
  const path = location.pathname;
  const root = path.slice(0, path.indexOf('/journals/') + 1);
  const letter = decodeURIComponent(path.slice(root.length + 'journals/'.length));
  const page = new URLSearchParams(location.search).get('page') || '1';

  const anchor = (href, text) => {
    const a = document.createElement('a');
    a.setAttribute('href', href);
    a.textContent = text;
    return a;
  };

  const render = (data) => {
    const heading = document.createElement('h1');
    heading.textContent = `Journals: ${data.letter}`;
    const list = document.createElement('ul');
    list.className = 'journal-list';
    for (const journal of data.journals) {
      const item = document.createElement('li');
      item.className = 'journal-item';
      item.appendChild(anchor(journal.url, journal.title));
      list.appendChild(item);
    }
    const parts = [heading];
    if (data.journals.length) {
      parts.push(list);
    } else {
      const empty = document.createElement('p');
      empty.textContent = 'No titles for this letter.';
      parts.push(empty);
    }
    const pager = document.createElement('nav');
    pager.className = 'pager';
    pager.setAttribute('aria-label', 'More journals');
    const where = document.createElement('span');
    where.textContent = `Page ${data.page} of ${data.pages} `;
    pager.appendChild(where);
    if (data.next) {
      const next = anchor(data.next, 'Next');
      next.setAttribute('rel', 'next');
      pager.appendChild(next);
    }
    parts.push(pager);
    app.replaceChildren(...parts);
  };

  const load = async () => {
    app.setAttribute('aria-busy', 'true');
    const query = `letter=${encodeURIComponent(letter)}&page=${encodeURIComponent(page)}`;
    const response = await fetch(`${root}api/journals?${query}`, { headers: { Accept: 'application/json' } });
    if (!response.ok) {
      throw new Error(`HTTP ${response.status}`);
    }
    render(await response.json());
    app.removeAttribute('aria-busy');
    app.dataset.state = 'ready';
  };

  load().catch((error) => {
    app.textContent = `The journals could not be loaded (${error.message}).`;
    app.removeAttribute('aria-busy');
    app.dataset.state = 'error';
  });
})();
