// tabs (Harrow & Teal): the app script of a Vue-like site whose pages the server renders. It opens the menu's
// drop-downs; on the A-Z pages its history router answers clicks on letters and on "Previous"/"Next" by fetching
// <root>api/journals?letter=L&page=N, writing the page into #results and pushing the page's URL (the server renders
// the same URL the same way); on a journal page it runs the tab bar: "Overview" is served, the "Journal metrics" and
// "Editorial board" panels are empty until their tab is first clicked, when they fetch
// <root>api/journal/<slug>/metrics or /editorial-board and carry data-state="ready". Nothing is fetched before a click.
(() => {
  'use strict';
  const root = new URL(document.currentScript.src, location.href).pathname.replace(/js\/[^/]+$/, '');
  const SCOPE = 'data-v-5f2a1c3e';

  const el = (tag, attributes, children) => {
    const node = document.createElement(tag);
    node.setAttribute(SCOPE, '');
    Object.keys(attributes || {}).forEach((name) => {
      const value = attributes[name];
      if (value !== null && value !== undefined && value !== false) {
        node.setAttribute(name, value === true ? '' : String(value));
      }
    });
    (children || []).forEach((child) => {
      if (child !== null && child !== undefined && child !== false) {
        node.append(child);
      }
    });
    return node;
  };

  const getJson = async (path) => {
    const response = await fetch(`${root}api/${path}`, { headers: { Accept: 'application/json' } });
    if (!response.ok) {
      throw new Error(`HTTP ${response.status}`);
    }
    return response.json();
  };

  // Menu ------------------------------------------------------------------------------------------------------
  document.querySelectorAll('.app-nav__toggle').forEach((toggle) => {
    toggle.addEventListener('click', () => {
      const item = toggle.closest('.app-nav__item');
      const open = item.classList.toggle('app-nav__item--open');
      toggle.setAttribute('aria-expanded', String(open));
    });
  });

  // A-Z router ------------------------------------------------------------------------------------------------
  const letterUrl = (letter, page) => `${root}journals?letter=${letter}${page > 1 ? `&page=${page}` : ''}`;

  const azIndex = (letters, current) =>
    el('nav', { class: 'az-index', 'aria-label': 'Browse journals by title' }, [
      el(
        'ul',
        {},
        letters.map(({ letter, count }) => {
          if (!count) {
            return el('li', {}, [el('span', { class: 'az-index__link az-index__link--empty', 'aria-disabled': 'true' }, [letter])]);
          }
          const active = letter === current;
          const css = `az-index__link${active ? ' router-link-active router-link-exact-active' : ''}`;
          return el('li', {}, [el('a', { href: letterUrl(letter, 1), class: css, 'aria-current': active ? 'page' : null }, [letter])]);
        })
      ),
    ]);

  const results = (data) => {
    const items = data.journals.map((journal) =>
      el('li', { class: 'journal-results__item' }, [
        el('a', { href: journal.url, class: 'journal-results__title' }, [journal.title]),
        el('span', { class: 'journal-results__subject' }, [journal.subject]),
        journal.openAccess ? el('span', { class: 'badge badge--oa' }, ['Open access']) : null,
      ])
    );
    const parts = [];
    if (data.pages > 1) {
      if (data.page > 1) {
        parts.push(el('a', { href: letterUrl(data.letter, data.page - 1), rel: 'prev' }, ['Previous']), ' ');
      }
      parts.push(el('span', { class: 'pager__status' }, [`Page ${data.page} of ${data.pages}`]));
      if (data.page < data.pages) {
        parts.push(' ', el('a', { href: letterUrl(data.letter, data.page + 1), rel: 'next' }, ['Next']));
      }
    }
    return el('section', { class: 'results', id: 'results', 'data-letter': data.letter, 'data-page': data.page }, [
      el('h2', { class: 'results__heading' }, [`Journals beginning with ${data.letter}`]),
      el('p', { class: 'results__count' }, [`${data.total} journal${data.total === 1 ? '' : 's'}`]),
      items.length ? el('ul', { class: 'journal-results' }, items) : el('p', { class: 'results-empty' }, ['No journals yet.']),
      parts.length ? el('nav', { class: 'pager', 'aria-label': 'Pagination' }, parts) : null,
    ]);
  };

  const route = (url) => {
    if (url.origin !== location.origin || url.pathname !== `${root}journals`) {
      return null;
    }
    const letter = url.searchParams.get('letter');
    return letter ? { letter: letter.toUpperCase(), page: Number(url.searchParams.get('page') || 1) } : null;
  };

  let latest = 0;
  const showLetter = async (target) => {
    const ticket = ++latest;
    const data = await getJson(`journals?letter=${encodeURIComponent(target.letter)}&page=${target.page}`);
    if (ticket !== latest) {
      return;
    }
    const current = document.getElementById('results');
    const bar = document.querySelector('.az-index');
    if (current) {
      current.replaceWith(results(data));
    } else if (bar) {
      bar.after(results(data));
    }
    if (bar) {
      bar.replaceWith(azIndex(data.letters, data.letter));
    }
    document.title = `Journals: ${data.letter} | Harrow & Teal`;
  };

  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    const anchor = event.target.closest('.az-index a[href], .pager a[href]');
    if (!anchor) {
      return;
    }
    const url = new URL(anchor.href, location.href);
    const target = route(url);
    if (!target) {
      return;
    }
    event.preventDefault();
    history.pushState(target, '', url.pathname + url.search);
    showLetter(target).catch(() => {
      location.assign(url.href);
    });
  });

  window.addEventListener('popstate', () => {
    const target = route(new URL(location.href));
    if (target && document.querySelector('.az-index')) {
      showLetter(target).catch(() => location.reload());
    }
  });

  // Journal tabs ----------------------------------------------------------------------------------------------
  const tablist = document.querySelector('[role="tablist"][data-journal]');
  if (!tablist) {
    return;
  }
  const slug = tablist.dataset.journal;
  const tabs = Array.from(tablist.querySelectorAll('[role="tab"]'));
  const loaded = {};

  const fixed = (value, places) => Number(value).toFixed(places);

  const metricsPanel = (data) => {
    const cards = [
      ['impactFactor', 'Impact factor', 3, `Journal Citation Reports (Clarivate, ${data.year})`],
      ['fiveYearImpactFactor', '5-year impact factor', 3, `Journal Citation Reports (Clarivate, ${data.year})`],
      ['citeScore', 'CiteScore', 1, `Scopus (Elsevier, ${data.year})`],
      ['sjr', 'SJR', 3, `SCImago Journal Rank (${data.year})`],
    ]
      .filter(([key]) => data[key] !== null && data[key] !== undefined)
      .map(([key, label, places, source]) =>
        el('li', { class: 'metric-card' }, [
          el('p', { class: 'metric-card__value' }, [fixed(data[key], places)]),
          el('p', { class: 'metric-card__name' }, [label]),
          el('p', { class: 'metric-card__source' }, [source]),
        ])
      );
    const nodes = [el('h2', { class: 'tab-panel__heading' }, ['Journal metrics'])];
    nodes.push(cards.length ? el('ul', { class: 'metric-cards' }, cards) : el('p', {}, ['No metrics have been published for this journal yet.']));
    if (!data.inJcr) {
      nodes.push(el('p', { class: 'metric-note' }, ['This journal is not yet indexed in the Journal Citation Reports.']));
    }
    return nodes;
  };

  const member = (person) =>
    el('li', { class: 'board-member' }, [
      el('p', { class: 'board-member__name' }, [person.name]),
      el('p', { class: 'board-member__affiliation' }, [person.affiliation]),
    ]);

  const boardPanel = (data) => {
    const nodes = [el('h2', { class: 'tab-panel__heading' }, ['Editorial board'])];
    const groups = [
      ['Editor-in-Chief', data.editorInChief ? [data.editorInChief] : []],
      ['Associate Editors', data.associateEditors],
      ['Editorial Advisory Board', data.advisoryBoard],
    ];
    groups
      .filter(([, people]) => people.length)
      .forEach(([heading, people]) => {
        nodes.push(el('div', { class: 'board-group' }, [el('h3', {}, [heading]), el('ul', { class: 'board-list' }, people.map(member))]));
      });
    return nodes;
  };

  const fillers = {
    metrics: async (panel) => panel.replaceChildren(...metricsPanel(await getJson(`journal/${encodeURIComponent(slug)}/metrics`))),
    board: async (panel) => panel.replaceChildren(...boardPanel(await getJson(`journal/${encodeURIComponent(slug)}/editorial-board`))),
  };

  const select = (tab) => {
    tabs.forEach((other) => {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      other.setAttribute('tabindex', selected ? '0' : '-1');
      document.getElementById(other.getAttribute('aria-controls')).hidden = !selected;
    });
    const key = tab.dataset.tab;
    const panel = document.getElementById(tab.getAttribute('aria-controls'));
    if (fillers[key] && !loaded[key]) {
      loaded[key] = true;
      panel.setAttribute('aria-busy', 'true');
      fillers[key](panel)
        .then(() => {
          panel.dataset.state = 'ready';
        })
        .catch(() => {
          loaded[key] = false;
          panel.replaceChildren(el('p', { class: 'tab-panel__error' }, ['Something went wrong. Please try again.']));
        })
        .then(() => panel.removeAttribute('aria-busy'));
    }
  };

  tabs.forEach((tab, position) => {
    tab.addEventListener('click', () => select(tab));
    tab.addEventListener('keydown', (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (step) {
        const next = tabs[(position + step + tabs.length) % tabs.length];
        next.focus();
        select(next);
      }
    });
  });
})();
