// loadmore (Kestrel University Press): the "All journals" grid is empty in the served page. On load this script
// appends the first ten journal cards from <root>api/journals.json?page=1; each click on "Load more journals" appends
// the next ten; once no journal is left the button is removed. The grid carries data-state="done" then.
(() => {
  'use strict';
  const grid = document.getElementById('journal-grid');
  const button = document.getElementById('load-more');
  const status = document.getElementById('journal-status');
  const root = location.pathname.replace(/journals\/?$/, '');
  let nextPage = 1;
  let loading = false;

  const card = (journal) => {
    const article = document.createElement('article');
    article.className = 'journal-card';
    const cover = document.createElement('a');
    cover.className = 'cover';
    cover.setAttribute('href', journal.url);
    cover.setAttribute('tabindex', '-1');
    const image = document.createElement('img');
    image.setAttribute('src', journal.cover);
    image.setAttribute('alt', '');
    image.setAttribute('loading', 'lazy');
    cover.appendChild(image);
    const heading = document.createElement('h3');
    const title = document.createElement('a');
    title.setAttribute('href', journal.url);
    title.textContent = journal.title;
    heading.appendChild(title);
    const subject = document.createElement('p');
    subject.className = 'subject';
    subject.textContent = journal.subject;
    article.append(cover, heading, subject);
    if (journal.openAccess) {
      const badge = document.createElement('span');
      badge.className = 'badge';
      badge.textContent = 'Open access';
      article.appendChild(badge);
    }
    return article;
  };

  const load = async () => {
    if (loading) {
      return;
    }
    loading = true;
    button.disabled = true;
    grid.setAttribute('aria-busy', 'true');
    try {
      const response = await fetch(`${root}api/journals.json?page=${nextPage}`, { headers: { Accept: 'application/json' } });
      if (!response.ok) {
        throw new Error(`HTTP ${response.status}`);
      }
      const data = await response.json();
      grid.append(...data.journals.map(card));
      status.textContent = `Showing ${grid.children.length} of ${data.total} journals`;
      nextPage = data.page + 1;
      if (data.hasMore) {
        button.hidden = false;
        button.disabled = false;
      } else {
        button.remove();
        grid.dataset.state = 'done';
      }
    } catch (error) {
      status.textContent = `The journals could not be loaded (${error.message}).`;
      button.disabled = false;
    } finally {
      loading = false;
      grid.removeAttribute('aria-busy');
    }
  };

  button.addEventListener('click', load);
  load();
})();
