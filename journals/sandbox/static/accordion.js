// accordion (Marram Academic): a journal page's sections are either buttons with aria-expanded="false" that show and
// hide a panel, or <details> elements. The "Journal metrics" section's body is empty in the served page: the first
// time it is opened this script fetches the HTML fragment its data-src names and writes it into the body, which then
// carries data-state="loaded". Later openings fetch nothing.
(() => {
  'use strict';
  const loaded = new WeakSet();

  const fill = async (body, src) => {
    if (!src || loaded.has(body)) {
      return;
    }
    loaded.add(body);
    body.setAttribute('aria-busy', 'true');
    try {
      const response = await fetch(src, { headers: { Accept: 'text/html', 'X-Requested-With': 'XMLHttpRequest' } });
      if (!response.ok) {
        throw new Error(`HTTP ${response.status}`);
      }
      body.innerHTML = await response.text();
      body.dataset.state = 'loaded';
    } catch (error) {
      loaded.delete(body);
      body.textContent = 'The metrics could not be loaded. Close and open this section to try again.';
    } finally {
      body.removeAttribute('aria-busy');
    }
  };

  document.querySelectorAll('.accordion__trigger[aria-expanded]').forEach((trigger) => {
    const panel = document.getElementById(trigger.getAttribute('aria-controls'));
    if (!panel) {
      return;
    }
    trigger.addEventListener('click', () => {
      const open = trigger.getAttribute('aria-expanded') !== 'true';
      trigger.setAttribute('aria-expanded', String(open));
      panel.hidden = !open;
      if (open) {
        fill(panel, panel.dataset.src);
      }
    });
  });

  document.querySelectorAll('details[data-src]').forEach((details) => {
    const body = details.querySelector('.c-collapsible__body');
    details.addEventListener('toggle', () => {
      if (details.open) {
        fill(body, details.dataset.src);
      }
    });
    if (details.open) {
      fill(body, details.dataset.src);
    }
  });
})();
