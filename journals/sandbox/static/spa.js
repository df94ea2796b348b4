// spa (Helix Scientific): a single-page app. The server answers every route with the same shell (an empty
// <app-root>); this script reads the route (a hash route #/journals/B or #/journals/B/2 first, else the path), writes
// the menu, the A–Z bar and the view from the site's JSON API under <root>api/, and follows the site's links with
// history.pushState, so a click on a journal loads no page. <app-root> carries data-state="ready" once rendered.
(() => {
  'use strict';
  const root = new URL(document.currentScript.src, location.href).pathname.replace(/main\.js$/, '');
  const app = document.querySelector('app-root');
  const requests = new Map();
  const LETTER_ROUTE = /^#\/journals\/([A-Z]|0-9)(?:\/(\d+))?$/;

  const style = document.createElement('style');
  style.textContent =
    '.app-menu ul,.az-bar ul{list-style:none;display:flex;flex-wrap:wrap;gap:.6em;padding:0}' +
    '.app-menu .submenu{display:none;position:absolute}.app-menu .has-children.open .submenu{display:block}' +
    '.az-bar .disabled{color:#aaa}.az-bar .active a{font-weight:bold}';
  document.head.appendChild(style);

  const getJson = (path) => {
    if (!requests.has(path)) {
      const request = fetch(`${root}api/${path}`, { headers: { Accept: 'application/json' } }).then((response) => {
        if (!response.ok) {
          throw new Error(`HTTP ${response.status}`);
        }
        return response.json();
      });
      request.catch(() => requests.delete(path));
      requests.set(path, request);
    }
    return requests.get(path);
  };

  const el = (tag, attributes, ...children) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value !== null && value !== undefined && value !== false) {
        node.setAttribute(name, value === true ? '' : String(value));
      }
    }
    for (const child of children.flat(Infinity)) {
      if (child !== null && child !== undefined && child !== false) {
        node.append(child);
      }
    }
    return node;
  };

  const fixed = (value, places) => Number(value).toFixed(places);
  const letterOf = (title) => (/^[A-Za-z]/.test(title) ? title[0].toUpperCase() : '0-9');
  const letterHash = (letter, page) => `#/journals/${letter}${page > 1 ? `/${page}` : ''}`;

  const header = (site) => {
    const items = site.menu.map((item) => {
      if (!item.children) {
        return el('li', {}, el('a', { href: item.path }, item.label));
      }
      const toggle = el('button', { type: 'button', 'aria-expanded': 'false' }, item.label);
      const entry = el(
        'li',
        { class: 'has-children' },
        toggle,
        el('ul', { class: 'submenu' }, item.children.map((child) => el('li', {}, el('a', { href: child.path }, child.label))))
      );
      toggle.addEventListener('click', () => {
        const open = entry.classList.toggle('open');
        toggle.setAttribute('aria-expanded', String(open));
      });
      return entry;
    });
    return el(
      'header',
      { class: 'app-header' },
      el('a', { class: 'brand', href: root }, site.brand),
      el('nav', { class: 'app-menu', 'aria-label': 'Main' }, el('ul', {}, items))
    );
  };

  const footer = (site) =>
    el(
      'footer',
      { class: 'app-footer' },
      el('h4', {}, 'From our partners'),
      el('ul', { class: 'partners' }, site.partners.map((p) => el('li', {}, el('a', { href: p.url, rel: 'noopener' }, p.title)))),
      el('p', { class: 'legal' }, `© 2026 ${site.brand}`, site.legal.map((l) => [' · ', el('a', { href: l.path }, l.label)]))
    );

  const azBar = (letters, current) =>
    el(
      'nav',
      { class: 'az-bar', 'aria-label': 'Journals A to Z' },
      el(
        'ul',
        {},
        letters.map(({ letter, count }) =>
          el(
            'li',
            { class: letter === current ? 'active' : null },
            count
              ? el('a', { href: letterHash(letter, 1), 'aria-current': letter === current ? 'page' : null }, letter)
              : el('span', { class: 'disabled', 'aria-disabled': 'true' }, letter)
          )
        )
      )
    );

  const homeView = async () => {
    const [home, letters] = await Promise.all([getJson('home.json'), getJson('letters.json')]);
    return {
      title: 'Journals',
      nodes: [
        el('section', { class: 'hero' }, el('h1', {}, home.heading), el('p', {}, 'Browse our journals by title.')),
        azBar(letters.letters, null),
        el(
          'section',
          { class: 'featured' },
          el('h2', {}, 'Featured journals'),
          el('ul', {}, home.featured.map((j) => el('li', {}, el('a', { href: j.path }, j.title))))
        ),
        el(
          'section',
          { class: 'news' },
          el('h2', {}, 'Latest news'),
          el('ul', {}, home.news.map((n) => el('li', {}, el('a', { href: n.path }, n.headline))))
        ),
      ],
    };
  };

  const paginator = (letter, page, pages) => {
    if (pages <= 1) {
      return null;
    }
    const parts = [];
    if (page > 1) {
      parts.push(el('a', { href: letterHash(letter, page - 1), rel: 'prev' }, '‹ Previous'));
    }
    for (let p = 1; p <= pages; p += 1) {
      parts.push(p === page ? el('span', { 'aria-current': 'page' }, String(p)) : el('a', { href: letterHash(letter, p) }, String(p)));
    }
    if (page < pages) {
      parts.push(el('a', { href: letterHash(letter, page + 1), rel: 'next' }, 'Next ›'));
    }
    return el('nav', { class: 'paginator', 'aria-label': 'Pages' }, parts);
  };

  const letterView = async (letter, page) => {
    const [data, letters] = await Promise.all([
      getJson(`journals/${encodeURIComponent(letter)}.json?page=${page}`),
      getJson('letters.json'),
    ]);
    const list = data.journals.length
      ? el(
          'ul',
          { class: 'journal-list' },
          data.journals.map((j) =>
            el('li', { class: 'journal-list-item' }, el('a', { href: j.path }, j.title), ' ', el('span', { class: 'subject' }, j.subject))
          )
        )
      : el('p', {}, 'No journals under this letter.');
    return {
      title: `Journals: ${letter}`,
      nodes: [
        el('h1', {}, `Journals: ${letter}`),
        azBar(letters.letters, letter),
        el('p', { class: 'count' }, `${data.total} journals`),
        list,
        paginator(letter, data.page, data.pages),
      ],
    };
  };

  const journalView = async (slug) => {
    const data = await getJson(`journal/${encodeURIComponent(slug)}.json`);
    const rows = [
      ['Print ISSN', data.printIssn],
      ['Online ISSN', data.onlineIssn],
      ['Impact Factor', data.impactFactor === null ? null : fixed(data.impactFactor, 3)],
      ['CiteScore', data.citeScore === null ? null : fixed(data.citeScore, 1)],
      ['Editor-in-Chief', data.editorInChief],
    ].filter(([, value]) => value !== null);
    const letter = letterOf(data.title);
    return {
      title: data.title,
      nodes: [
        el(
          'nav',
          { class: 'breadcrumb', 'aria-label': 'Breadcrumb' },
          el('a', { href: root }, 'Home'),
          ' › ',
          el('a', { href: letterHash(letter, 1) }, `Journals: ${letter}`)
        ),
        el('h1', { class: 'journal-title' }, data.title),
        el('p', { class: 'journal-subject' }, `A journal of ${data.subject}.`),
        el('dl', { class: 'journal-facts' }, rows.map(([label, value]) => el('div', { class: 'fact' }, el('dt', {}, label), el('dd', {}, value)))),
        el('p', { class: 'actions' }, el('a', { href: `${root}journal/${slug}/submit`, class: 'button' }, 'Submit a manuscript')),
        el(
          'aside',
          { class: 'related' },
          el('h2', {}, 'Related journals'),
          el(
            'ul',
            {},
            data.related.map((r) =>
              el(
                'li',
                {},
                el('a', { href: r.path }, r.title),
                r.impactFactor === null ? null : el('span', { class: 'related-metric' }, ` Impact Factor ${fixed(r.impactFactor, 3)}`)
              )
            )
          )
        ),
      ],
    };
  };

  const submitView = async (slug) => {
    const data = await getJson(`journal/${encodeURIComponent(slug)}.json`);
    return {
      title: `Submit to ${data.title}`,
      nodes: [el('h1', {}, `Submit to ${data.title}`), el('p', {}, 'Manuscripts are submitted through our online system.')],
    };
  };

  const pageView = async (rest) => {
    const data = await getJson(`pages/${rest}.json`);
    return { title: data.heading, nodes: [el('h1', {}, data.heading), data.paragraphs.map((p) => el('p', {}, p))] };
  };

  const notFoundView = () => ({
    title: 'Page not found',
    nodes: [el('h1', {}, 'Page not found'), el('p', {}, 'The page you asked for does not exist. ', el('a', { href: root }, 'Go home'))],
  });

  const resolve = () => {
    const hash = location.hash.match(LETTER_ROUTE);
    if (hash) {
      if (location.pathname !== root) {
        history.replaceState(null, '', root + location.hash);
      }
      return () => letterView(hash[1], Number(hash[2] || 1));
    }
    const rest = decodeURIComponent(location.pathname.slice(root.length)).replace(/\/$/, '');
    let match;
    if (rest === '') {
      return homeView;
    }
    if (rest === 'journals') {
      return () => letterView('A', 1);
    }
    if ((match = rest.match(/^journals\/([A-Za-z]|0-9)$/))) {
      return () => letterView(match[1].toUpperCase(), 1);
    }
    if ((match = rest.match(/^journal\/([a-z0-9-]+)$/))) {
      return () => journalView(match[1]);
    }
    if ((match = rest.match(/^journal\/([a-z0-9-]+)\/submit$/))) {
      return () => submitView(match[1]);
    }
    if (/^(subjects|news)\/[a-z0-9-]+$|^[a-z-]+$/.test(rest)) {
      return () => pageView(rest);
    }
    return async () => notFoundView();
  };

  let latest = 0;
  const render = async () => {
    const ticket = ++latest;
    app.setAttribute('aria-busy', 'true');
    let view;
    try {
      view = await resolve()();
    } catch (error) {
      view = notFoundView();
    }
    let site;
    try {
      site = await getJson('site.json');
    } catch (error) {
      app.textContent = `This application could not be loaded (${error.message}).`;
      app.dataset.state = 'error';
      return;
    }
    if (ticket !== latest) {
      return;
    }
    document.title = `${view.title} | ${site.brand}`;
    app.replaceChildren(header(site), el('main', { class: 'app-main' }, view.nodes), footer(site));
    app.removeAttribute('aria-busy');
    app.dataset.state = 'ready';
    window.scrollTo(0, 0);
  };

  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    const anchor = event.target.closest('a[href]');
    if (!anchor || anchor.target || anchor.hasAttribute('download')) {
      return;
    }
    const url = new URL(anchor.href, location.href);
    if (url.origin !== location.origin || !url.pathname.startsWith(root)) {
      return;
    }
    if (url.pathname === location.pathname && url.search === location.search && url.hash) {
      return; // a hash route: the browser changes the hash and hashchange renders the view
    }
    event.preventDefault();
    history.pushState(null, '', url.pathname + url.search + url.hash);
    render();
  });
  window.addEventListener('popstate', render);
  window.addEventListener('hashchange', render);
  render();
})();
