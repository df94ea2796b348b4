// infinite (Ibis Scholarly): the "Browse journals" list is empty in the served page. On load this script appends the
// first twelve journals from the list's data-api (<root>api/v2/journals?offset=0&limit=12); an IntersectionObserver
// watches the sentinel after the list and appends the next twelve each time it comes into view (the reader scrolled
// to the bottom), until the API has no next offset. The sentinel is then removed and the list carries
// data-state="complete". No letters, page numbers or "Load more" button.
(() => {
  'use strict';
  const BATCH = 12;
  const list = document.getElementById('journal-list');
  const sentinel = document.getElementById('scroll-sentinel');
  const status = document.getElementById('list-status');
  if (!list || !sentinel || !('IntersectionObserver' in window)) {
    return;
  }
  const api = list.dataset.api;
  let offset = 0;
  let loading = false;
  let done = false;
  let observer = null;

  const row = (journal) => {
    const item = document.createElement('li');
    item.className = 'journal-row';
    const title = document.createElement('a');
    title.className = 'journal-row__title';
    title.setAttribute('href', journal.url);
    title.textContent = journal.title;
    const subject = document.createElement('span');
    subject.className = 'journal-row__subject';
    subject.textContent = ` ${journal.subject}`;
    item.append(title, subject);
    if (journal.openAccess) {
      const badge = document.createElement('span');
      badge.className = 'badge badge-oa';
      badge.textContent = ' Open access';
      item.appendChild(badge);
    }
    return item;
  };

  const finish = (total) => {
    done = true;
    observer.disconnect();
    sentinel.remove();
    list.dataset.state = 'complete';
    status.textContent = `You have reached the end: all ${total} journals are shown.`;
  };

  const loadNext = async () => {
    if (loading || done) {
      return;
    }
    loading = true;
    list.setAttribute('aria-busy', 'true');
    try {
      const response = await fetch(`${api}?offset=${offset}&limit=${BATCH}`, { headers: { Accept: 'application/json' } });
      if (!response.ok) {
        throw new Error(`HTTP ${response.status}`);
      }
      const data = await response.json();
      const fragment = document.createDocumentFragment();
      data.items.forEach((journal) => fragment.appendChild(row(journal)));
      list.appendChild(fragment);
      offset = data.offset + data.items.length;
      status.textContent = `Showing ${list.children.length} of ${data.total} journals`;
      if (data.nextOffset === null) {
        finish(data.total);
      }
    } catch (error) {
      status.textContent = `More journals could not be loaded (${error.message}).`;
      done = true;
      observer.disconnect();
    } finally {
      loading = false;
      list.removeAttribute('aria-busy');
    }
    if (!done) {
      // Observing again reports the sentinel's current state: if the new rows did not push it out of view (a tall
      // window), the next batch follows; otherwise the next report comes when the reader scrolls down to it.
      observer.unobserve(sentinel);
      observer.observe(sentinel);
    }
  };

  observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting) && offset > 0) {
        loadNext();
      }
    },
    { rootMargin: '0px 0px 150px 0px' }
  );
  loadNext();
})();
