// hashbang (Quillon Press): an AngularJS-style app. The served page is an empty <div ng-app> holding an empty
// <div ng-view>; this script routes on the hashbang (#!/, #!/browse/B, #!/journal/<slug>, #!/subjects/<slug>,
// #!/news/<slug>, #!/page/<name>; anything else goes to #!/), fetches the route's template from <root>views/ and its
// data from <root>api/, compiles the template ({{ expr }}, {{ expr | number:N }}, ng-repeat, ng-if, ng-href) and
// puts it into ng-view between the header and footer views. ng-view carries data-route="<route>" once rendered.
(() => {
  'use strict';
  const root = new URL(document.currentScript.src, location.href).pathname.replace(/js\/[^/]+$/, '');
  const app = document.querySelector('[ng-app]');
  const view = document.querySelector('[ng-view]');
  const cache = new Map();

  const get = (path, type) => {
    if (!cache.has(path)) {
      const request = fetch(root + path, { headers: { Accept: type } }).then((response) => {
        if (!response.ok) {
          throw new Error(`HTTP ${response.status}`);
        }
        return type === 'application/json' ? response.json() : response.text();
      });
      request.catch(() => cache.delete(path));
      cache.set(path, request);
    }
    return cache.get(path);
  };
  const template = (name) => get(`views/${name}`, 'text/html');
  const api = (path) => get(`api/${path}`, 'application/json');

  // A small compiler for the templates' AngularJS syntax -------------------------------------------------------
  const lookup = (path, scope) =>
    path.split('.').reduce((value, key) => (value === null || value === undefined ? undefined : value[key]), scope);

  const evaluate = (expression, scope) => {
    const [head, ...filters] = expression.split('|').map((part) => part.trim());
    const negate = head.startsWith('!');
    let value = lookup(negate ? head.slice(1) : head, scope);
    filters.forEach((filter) => {
      const [name, argument] = filter.split(':').map((part) => part.trim());
      if (name === 'number' && value !== null && value !== undefined && value !== '') {
        value = Number(value).toFixed(Number(argument || 3));
      }
    });
    return negate ? !value : value;
  };

  const interpolate = (text, scope) =>
    text.replace(/\{\{\s*([^}]+?)\s*\}\}/g, (match, expression) => {
      const value = evaluate(expression, scope);
      return value === null || value === undefined ? '' : String(value);
    });

  const compile = (node, scope) => {
    if (node.nodeType === Node.TEXT_NODE) {
      if (node.nodeValue.includes('{{')) {
        node.nodeValue = interpolate(node.nodeValue, scope);
        if (node.parentNode && node.parentNode.classList) {
          node.parentNode.classList.add('ng-binding');
        }
      }
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) {
      return;
    }
    const repeat = node.getAttribute('ng-repeat');
    if (repeat) {
      const [, name, listExpression] = repeat.match(/^\s*(\w+)\s+in\s+(.+?)\s*$/);
      const parent = node.parentNode;
      const marker = document.createComment(` ngRepeat: ${repeat} `);
      parent.insertBefore(marker, node);
      node.remove();
      let after = marker;
      (evaluate(listExpression, scope) || []).forEach((item, position) => {
        const copy = node.cloneNode(true);
        copy.removeAttribute('ng-repeat');
        copy.classList.add('ng-scope');
        const child = Object.create(scope);
        child[name] = item;
        child.$index = position;
        parent.insertBefore(copy, after.nextSibling);
        after = copy;
        compile(copy, child);
      });
      return;
    }
    const condition = node.getAttribute('ng-if');
    if (condition) {
      const value = evaluate(condition, scope);
      if (value === null || value === undefined || value === false || value === '' || value === 0) {
        node.replaceWith(document.createComment(` ngIf: ${condition} `));
        return;
      }
      node.classList.add('ng-scope');
    }
    Array.from(node.attributes).forEach((attribute) => {
      if (attribute.name === 'ng-href') {
        node.setAttribute('href', interpolate(attribute.value, scope));
      } else if (attribute.value.includes('{{')) {
        node.setAttribute(attribute.name, interpolate(attribute.value, scope));
      }
    });
    Array.from(node.childNodes).forEach((child) => compile(child, scope));
  };

  const render = async (name, scope) => {
    const holder = document.createElement('div');
    holder.innerHTML = await template(name);
    Array.from(holder.childNodes).forEach((child) => compile(child, scope));
    return Array.from(holder.childNodes);
  };

  // Routes ---------------------------------------------------------------------------------------------------
  const routes = [
    [/^\/$/, async () => ({ view: 'home.html', title: 'Journals', scope: { home: await api('home.json'), letters: (await api('letters.json')).letters } })],
    [
      /^\/browse\/([A-Za-z]|0-9)$/,
      async (letter) => {
        const [browse, letters] = await Promise.all([api(`browse/${letter.toUpperCase()}.json`), api('letters.json')]);
        return { view: 'browse.html', title: `Journals: ${browse.letter}`, scope: { browse, letters: letters.letters } };
      },
    ],
    [
      /^\/journal\/([a-z0-9-]+)$/,
      async (slug) => {
        const journal = await api(`journal/${slug}.json`);
        return { view: 'journal.html', title: journal.title, scope: { journal } };
      },
    ],
    [/^\/((?:subjects|news)\/[a-z0-9-]+)$/, async (path) => pageRoute(path)],
    [/^\/page\/([a-z0-9-]+)$/, async (path) => pageRoute(path)],
  ];
  const pageRoute = async (path) => {
    const page = await api(`page/${path}.json`);
    return { view: 'page.html', title: page.heading, scope: { page } };
  };

  const currentPath = () => (location.hash.startsWith('#!') ? location.hash.slice(2) || '/' : null);

  let site = null;
  let latest = 0;
  const show = async () => {
    const path = currentPath();
    if (path === null) {
      location.replace('#!/');
      return;
    }
    const found = routes.map(([pattern, load]) => [path.match(pattern), load]).find(([match]) => match);
    if (!found) {
      location.replace('#!/'); // $routeProvider.otherwise({ redirectTo: '/' })
      return;
    }
    const ticket = ++latest;
    let state;
    try {
      state = await found[1](...found[0].slice(1));
    } catch (error) {
      state = { view: '404.html', title: 'Page not found', scope: {} };
    }
    if (!site) {
      site = await api('site.json');
      const [header, footer] = await Promise.all([render('header.html', { site }), render('footer.html', { site })]);
      const top = document.createElement('div');
      top.className = 'qp-chrome-top ng-scope';
      top.append(...header);
      const bottom = document.createElement('div');
      bottom.className = 'qp-chrome-bottom ng-scope';
      bottom.append(...footer);
      app.insertBefore(top, view);
      app.appendChild(bottom);
    }
    const nodes = await render(state.view, Object.assign({ site }, state.scope));
    if (ticket !== latest) {
      return;
    }
    view.replaceChildren(...nodes);
    view.classList.add('ng-scope');
    view.dataset.route = path;
    document.title = `${state.title} | ${site.brand}`;
    window.scrollTo(0, 0);
  };

  window.addEventListener('hashchange', show);
  show();
})();
