// The script of MacMD's preview webview (loaded by nonce from extension.js, nothing else runs):
// links post a message to the extension, which opens them; the extension's `scroll` messages
// bring the element of a source line into view; a double-click asks the editor to reveal the
// source line under it.
//
// Invariants:
//   * Every click on a link is handled here (the webview never navigates): an in-page anchor
//     scrolls, anything else is posted as `{type: 'link', href}` with the href as the page wrote
//     it (the extension knows the base it asked the server for).
//   * Lines in messages are 0-based source lines; the page's `data-source-line` is 1-based.
//   * Pure helpers are exported for the Node tests (test/extension.test.js) when `module` exists.

'use strict';

/**
 * The element to show for the 0-based source `line`: the last of `elements` (in document order,
 * each with a 1-based `data-source-line`) that starts at or before it; the first when all start
 * after it; null when there are none.
 */
function elementForLine(elements, line) {
  let best = null;
  for (const element of elements) {
    const start = Number(element.getAttribute('data-source-line')) - 1;
    if (Number.isNaN(start)) {
      continue;
    }
    if (start <= line) {
      best = element;
    } else {
      return best || element;
    }
  }
  return best;
}

/** The 0-based source line of `element` or of its nearest ancestor that has one, else null. */
function sourceLineOf(element) {
  for (let node = element; node; node = node.parentElement) {
    const value = node.getAttribute && node.getAttribute('data-source-line');
    if (value) {
      return Number(value) - 1;
    }
  }
  return null;
}

/** The link `element` is in (itself or an ancestor `<a>` with an href), else null. */
function linkOf(element) {
  for (let node = element; node; node = node.parentElement) {
    if (node.tagName && node.tagName.toLowerCase() === 'a' && node.getAttribute('href') !== null) {
      return node;
    }
  }
  return null;
}

/** The element an in-page `#fragment` names, else null. */
function anchorTarget(document, href) {
  let id = href.slice(1);
  try {
    id = decodeURIComponent(id);
  } catch (error) {
    // A malformed escape: the id as written.
  }
  return id === '' ? null : document.getElementById(id);
}

/** Wires the page: clicks, double-clicks and the extension's messages. */
function start(window, document, vscode) {
  const scrollTo = (line) => {
    const element = elementForLine(document.querySelectorAll('[data-source-line]'), line);
    if (element) {
      element.scrollIntoView({ block: 'start' });
    }
  };
  document.addEventListener('click', (event) => {
    const link = linkOf(event.target);
    if (!link) {
      return;
    }
    event.preventDefault();
    const href = link.getAttribute('href');
    if (href.startsWith('#')) {
      const target = anchorTarget(document, href);
      if (target) {
        target.scrollIntoView({ block: 'start' });
        return;
      }
    }
    vscode.postMessage({ type: 'link', href });
  });
  document.addEventListener('dblclick', (event) => {
    const line = sourceLineOf(event.target);
    if (line !== null) {
      vscode.postMessage({ type: 'reveal', line });
    }
  });
  window.addEventListener('message', (event) => {
    const message = event.data || {};
    if (message.type === 'scroll' && typeof message.line === 'number') {
      scrollTo(message.line);
    }
  });
  // A new page (every render replaces it) starts where the editor is.
  const script = document.currentScript || document.getElementById('macmd-preview-script');
  const initial = script && Number(script.getAttribute('data-line'));
  if (initial > 0) {
    scrollTo(initial);
  }
}

if (typeof module !== 'undefined' && module.exports) {
  module.exports = { elementForLine, sourceLineOf, linkOf, anchorTarget, start };
} else {
  // eslint-disable-next-line no-undef
  start(window, document, acquireVsCodeApi());
}
