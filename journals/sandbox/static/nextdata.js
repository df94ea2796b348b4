// nextdata (Lumen Academic): Next.js-like pages. The served page is an empty #__next and the page's props as JSON in
// <script id="__NEXT_DATA__">; this script renders the page its "page" field names (the start page, the A–Z index, a
// letter's page, a journal's overview, its "Journal metrics" tab, its other tabs, a prose page) from those props.
(() => {
  'use strict';
  const data = JSON.parse(document.getElementById('__NEXT_DATA__').textContent);
  const props = data.props.pageProps;
  const mount = document.getElementById('__next');

  const el = (tag, attributes, ...children) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value !== null && value !== undefined && value !== false) {
        node.setAttribute(name, String(value));
      }
    }
    for (const child of children.flat(Infinity)) {
      if (child !== null && child !== undefined && child !== false) {
        node.append(child);
      }
    }
    return node;
  };
  const anchor = (href, text, attributes) => el('a', Object.assign({ href }, attributes || {}), text);

  const header = (chrome) =>
    el(
      'header',
      { class: 'Header_header__x1' },
      anchor(`${data.assetPrefix}/`, chrome.brand, { class: 'Header_logo__x2' }),
      el('nav', { class: 'Header_nav__x3' }, el('ul', {}, chrome.nav.map((item) => el('li', {}, anchor(item.href, item.label)))))
    );

  const footer = (chrome) =>
    el(
      'footer',
      { class: 'Footer_footer__y1' },
      el('h4', {}, 'Partner journals'),
      el('ul', {}, chrome.partners.map((p) => el('li', {}, anchor(p.href, p.title, { rel: 'noopener' })))),
      el('p', {}, `© 2026 ${chrome.brand}`, chrome.footer.map((l) => [' · ', anchor(l.href, l.label)]))
    );

  const letterBar = (letters, current) =>
    el(
      'nav',
      { class: 'AZ_az__z1', 'aria-label': 'Browse journals by letter' },
      el(
        'ul',
        {},
        letters.map((l) =>
          el(
            'li',
            {},
            l.href
              ? anchor(l.href, l.letter, { 'aria-current': l.letter === current ? 'page' : null })
              : el('span', { class: 'AZ_disabled__z2' }, l.letter)
          )
        )
      )
    );

  const tabs = (journal, active) =>
    el(
      'nav',
      { class: 'Tabs_tabs__t1', 'aria-label': 'Journal navigation' },
      el(
        'ul',
        {},
        journal.tabs.map((tab) =>
          el('li', {}, anchor(tab.href, tab.label, { 'aria-current': tab.label === active ? 'page' : null }))
        )
      )
    );

  const journalHead = (journal, active) => [el('h1', { class: 'Journal_title__j1' }, journal.title), tabs(journal, active)];

  const pages = {
    '/': () => ({
      title: 'Journals',
      main: [
        el('h1', {}, props.heading),
        letterBar(props.letters, null),
        el('section', {}, el('h2', {}, 'Featured journals'), el('ul', {}, props.featured.map((j) => el('li', {}, anchor(j.href, j.title))))),
        el('section', {}, el('h2', {}, 'News'), el('ul', {}, props.news.map((n) => el('li', {}, anchor(n.href, n.headline))))),
      ],
    }),
    '/journals': () => ({
      title: props.heading,
      main: [el('h1', {}, props.heading), el('p', {}, 'Choose a letter to see its journals.'), letterBar(props.letters, null)],
    }),
    '/journals/[letter]': () => {
      const parts = [];
      if (props.pages.length > 1) {
        props.pages.forEach((href, i) => {
          parts.push(i + 1 === props.page ? el('span', { 'aria-current': 'page' }, String(i + 1)) : anchor(href, String(i + 1)));
        });
        if (props.page < props.pages.length) {
          parts.push(anchor(props.pages[props.page], 'Next', { rel: 'next' }));
        }
      }
      return {
        title: `Journals: ${props.letter}`,
        main: [
          el('h1', {}, `Journals beginning with ${props.letter}`),
          letterBar(props.letters, props.letter),
          el(
            'ul',
            { class: 'JournalList_list__l1' },
            props.journals.map((j) => el('li', {}, anchor(j.href, j.title), el('span', { class: 'JournalList_subject__l2' }, ` ${j.subject}`)))
          ),
          parts.length ? el('nav', { class: 'Pagination_pagination__p1', 'aria-label': 'Pagination' }, parts) : null,
        ],
      };
    },
    '/journal/[slug]': () => {
      const journal = props.journal;
      const rows = [
        ['ISSN (print)', journal.issnPrint],
        ['ISSN (online)', journal.issnOnline],
        ['Editor-in-Chief', journal.editorInChief],
      ].filter(([, value]) => value !== null);
      return {
        title: journal.title,
        main: [
          ...journalHead(journal, 'Overview'),
          el('section', {}, el('h2', {}, 'Aims and scope'), el('p', {}, journal.aims)),
          el('dl', { class: 'Journal_facts__j2' }, rows.map(([label, value]) => [el('dt', {}, label), el('dd', {}, value)])),
        ],
      };
    },
    '/journal/[slug]/metrics': () => {
      const journal = props.journal;
      const metrics = props.metrics.map((m) =>
        el(
          'div',
          { class: 'Metrics_metric__m1' },
          el('p', { class: 'Metrics_label__m2' }, m.label),
          el('p', { class: 'Metrics_value__m3' }, Number(m.value).toFixed(m.key === 'citeScore' ? 1 : 3))
        )
      );
      return {
        title: `Journal metrics | ${journal.title}`,
        main: [
          ...journalHead(journal, 'Journal metrics'),
          el('h2', {}, 'Journal metrics'),
          el('div', { class: 'Metrics_grid__m4' }, metrics),
          el('h3', {}, 'Sources'),
          el('ul', { class: 'Metrics_notes__m5' }, props.notes.map((n) => el('li', {}, n))),
        ],
      };
    },
    '/journal/[slug]/[tab]': () => ({
      title: `${props.heading} | ${props.journal.title}`,
      main: [...journalHead(props.journal, props.heading), el('h2', {}, props.heading), props.paragraphs.map((p) => el('p', {}, p))],
    }),
    '/[...slug]': () => ({
      title: props.heading,
      main: [el('h1', {}, props.heading), props.paragraphs.map((p) => el('p', {}, p))],
    }),
  };

  const page = (pages[data.page] || pages['/[...slug]'])();
  document.title = `${page.title} | ${props.chrome.brand}`;
  mount.replaceChildren(header(props.chrome), el('main', { class: 'Layout_main__k1' }, page.main), footer(props.chrome));
})();
