// scriptapp: the A–Z letters are script handlers. A click fetches <root>api/letters/<LETTER>.json and replaces the
// content of #results with that letter's journals; #results then carries data-letter="<LETTER>".
(() => {
  'use strict';
  const results = document.getElementById('results');
  const root = location.pathname.replace(/[^/]*$/, '');
  let latest = 0; // when letters are clicked quickly, the last click's list is the one shown

  const render = (data) => {
    const heading = document.createElement('h2');
    heading.textContent = `Journals starting with ${data.letter}`;
    if (!data.journals.length) {
      const empty = document.createElement('p');
      empty.textContent = 'No journals under this letter yet.';
      return [heading, empty];
    }
    const list = document.createElement('ul');
    list.className = 'results-list';
    for (const journal of data.journals) {
      const item = document.createElement('li');
      const a = document.createElement('a');
      a.setAttribute('href', journal.url);
      a.textContent = journal.title;
      item.appendChild(a);
      list.appendChild(item);
    }
    return [heading, list];
  };

  const show = async (letter) => {
    const ticket = ++latest;
    results.setAttribute('aria-busy', 'true');
    const response = await fetch(`${root}api/letters/${encodeURIComponent(letter)}.json`);
    if (!response.ok) {
      throw new Error(`HTTP ${response.status}`);
    }
    const data = await response.json();
    if (ticket !== latest) {
      return;
    }
    results.replaceChildren(...render(data));
    results.dataset.letter = letter;
    results.removeAttribute('aria-busy');
  };

  window.showLetter = (letter) => {
    show(letter).catch((error) => {
      results.textContent = `The journals could not be loaded (${error.message}).`;
      results.removeAttribute('aria-busy');
    });
    return false;
  };

  for (const button of document.querySelectorAll('button[data-letter]')) {
    button.addEventListener('click', () => window.showLetter(button.dataset.letter));
  }
})();
