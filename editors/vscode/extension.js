// MacMD for VS Code: runs `macmd lsp` through vscode-languageclient 9 for Markdown documents, and
// a live preview webview that asks the server for `macmd/preview` as you type.
//
// Invariants:
//   * One language client at a time; a change of `macmd.path` replaces it.
//   * One preview panel per document. Renders are debounced (150 ms) and numbered, so a slow
//     answer never overwrites a newer one; a ContentModified (-32801) answer is dropped because a
//     newer request follows it.
//   * The webview loads only what its CSP allows: images, media and fonts from the notebook's
//     folders (`localResourceRoots`: the workspace folders, and a note's own folder outside
//     them) through `webview.cspSource` or `data:`, the page's inline styles, and one script,
//     ours (media/preview.js), by nonce. The server writes the page's URLs under the webview URL
//     of the notebook's root (`baseUri`), so images load and links can be mapped back to files.
//   * The server hears only its own settings: the extension's (`path`, `trace`) and unset (null)
//     values are left out, so a theme the user did not set lets the notebook's apply.

'use strict';

const vscode = require('vscode');
const { LanguageClient, RevealOutputChannelOn } = require('vscode-languageclient/node');

const PREVIEW_METHOD = 'macmd/preview';
const DEBOUNCE_MS = 150;
const CONTENT_MODIFIED = -32801;

/** @type {LanguageClient | undefined} */
let client;
/** @type {Promise<void> | undefined} */
let clientReady;
/** @type {vscode.OutputChannel | undefined} */
let outputChannel;
/** Preview panels by document URI (string). @type {Map<string, Preview>} */
const previews = new Map();

function configuration() {
  return vscode.workspace.getConfiguration('macmd');
}

function serverCommand() {
  const path = configuration().get('path');
  return typeof path === 'string' && path.trim() !== '' ? path.trim() : 'macmd';
}

/** The theme the user set, or undefined: the server then uses the notebook's (`preview.theme`). */
function previewTheme() {
  const theme = configuration().get('preview.theme');
  return typeof theme === 'string' && theme !== '' ? theme : undefined;
}

/** The extension's own settings, which the server does not read. */
const CLIENT_KEYS = ['path', 'trace'];

/** A copy of `value` without null members (VS Code's value of a setting without a default). */
function withoutNulls(value) {
  if (Array.isArray(value)) {
    return value.map(withoutNulls);
  }
  if (value === null || typeof value !== 'object') {
    return value;
  }
  const result = {};
  for (const [key, member] of Object.entries(value)) {
    if (member !== null && member !== undefined && typeof member !== 'function') {
      result[key] = withoutNulls(member);
    }
  }
  return result;
}

/** The `macmd` section as the server reads it: its own keys, without unset values. */
function serverSettings(section) {
  const settings = withoutNulls(JSON.parse(JSON.stringify(section || {})));
  for (const key of CLIENT_KEYS) {
    delete settings[key];
  }
  // The empty theme is the setting's "(the notebook's)".
  if (settings.preview && settings.preview.theme === '') {
    delete settings.preview.theme;
  }
  if (settings.preview && Object.keys(settings.preview).length === 0) {
    delete settings.preview;
  }
  return settings;
}

/** Starts a client for `macmd lsp`; resolves once the server has answered `initialize`. */
function startClient() {
  /** @type {import('vscode-languageclient/node').ServerOptions} */
  const serverOptions = {
    // No `transport`: the client speaks over stdio without adding `--stdio` to the arguments.
    command: serverCommand(),
    args: ['lsp'],
  };
  /** @type {import('vscode-languageclient/node').LanguageClientOptions} */
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'markdown' },
      { scheme: 'untitled', language: 'markdown' },
    ],
    // The server asks for the `macmd` section with workspace/configuration and may register for
    // workspace/didChangeConfiguration; this keeps both answered from the user's settings.
    synchronize: { configurationSection: 'macmd' },
    middleware: {
      workspace: {
        // `settings: null` makes the server ask (workspace/configuration, below) rather than
        // read the whole section with the extension's keys in it.
        didChangeConfiguration: (sections, next) => next(undefined),
        configuration: async (params, token, next) => {
          const values = await next(params, token);
          return Array.isArray(values)
            ? values.map((value, index) => (params.items[index] && params.items[index].section === 'macmd' ? serverSettings(value) : value))
            : values;
        },
      },
    },
    initializationOptions: serverSettings(configuration()),
    outputChannel,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
  };
  client = new LanguageClient('macmd', 'MacMD', serverOptions, clientOptions);
  clientReady = client.start().catch((error) => {
    const message = `MacMD: could not start \`${serverCommand()} lsp\`: ${error && error.message ? error.message : error}. ` +
      'Install macmd or set "macmd.path".';
    vscode.window.showErrorMessage(message, 'Open Settings').then((choice) => {
      if (choice === 'Open Settings') {
        vscode.commands.executeCommand('workbench.action.openSettings', 'macmd.path');
      }
    });
    throw error;
  });
  // A failed start is reported above; keep the rejection from being reported as unhandled.
  clientReady.catch(() => undefined);
  return clientReady;
}

async function restartClient() {
  const old = client;
  client = undefined;
  clientReady = undefined;
  if (old) {
    try {
      await old.stop();
    } catch (error) {
      outputChannel && outputChannel.appendLine(`stopping the old client: ${error}`);
    }
  }
  await startClient().catch(() => undefined);
  for (const preview of previews.values()) {
    preview.schedule(0);
  }
}

/** Waits for the client, starting it when there is none. */
async function readyClient() {
  if (!client || !clientReady) {
    startClient();
  }
  await clientReady;
  return client;
}

/** Asks the server for the preview of a document: a full page whose relative URLs are written
 * under `baseUri` (the webview URL of the notebook's root), when the document is a file, and
 * whose own Content-Security-Policy allows the script with `nonce` (ours). */
async function requestPreview(document, baseUri, nonce) {
  const options = { fullPage: true, sourceLines: true, scriptNonce: nonce };
  const theme = previewTheme();
  if (theme) {
    options.theme = theme;
  }
  if (baseUri) {
    options.baseUri = baseUri;
  }
  return (await readyClient()).sendRequest(PREVIEW_METHOD, { textDocument: { uri: document.uri.toString() }, options });
}

function escapeHTML(text) {
  return String(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** A fresh nonce for one page's script. */
function makeNonce() {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let nonce = '';
  for (let i = 0; i < 32; i += 1) {
    nonce += letters.charAt(Math.floor(Math.random() * letters.length));
  }
  return nonce;
}

/** The Content-Security-Policy of a page: the notebook's images, media and fonts (and `data:`
 * images), inline styles, and only the script with `nonce`. */
function contentSecurityPolicy(cspSource, nonce) {
  const policy = `default-src 'none'; img-src ${cspSource} data:; media-src ${cspSource}; font-src ${cspSource}; ` +
    `style-src 'unsafe-inline'; script-src 'nonce-${nonce}';`;
  return `<meta http-equiv="Content-Security-Policy" content="${policy}">`;
}

/** The server's page with `policy` as the first thing in <head> and `script` before </body>. */
function withPolicy(html, policy, script = '') {
  let page;
  const head = html.search(/<head(\s[^>]*)?>/i);
  if (head >= 0) {
    const end = html.indexOf('>', head) + 1;
    page = html.slice(0, end) + policy + html.slice(end);
  } else {
    page = `<!DOCTYPE html><html><head>${policy}</head><body>${html}</body></html>`;
  }
  const bodyEnd = page.lastIndexOf('</body>');
  return bodyEnd >= 0 ? page.slice(0, bodyEnd) + script + page.slice(bodyEnd) : page + script;
}

function messagePage(title, message) {
  return withPolicy(`<!DOCTYPE html><html><head><meta charset="utf-8"><style>
body { font: 14px/1.5 var(--vscode-font-family, sans-serif); color: var(--vscode-foreground); padding: 1em 2em; }
h1 { font-size: 1.2em; }
</style></head><body><h1>${escapeHTML(title)}</h1><p>${escapeHTML(message)}</p></body></html>`,
  `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';">`);
}

/** The folder a document's relative links start from: its workspace folder, else its own
 * folder (the server makes that a notebook of its own); undefined for a document not on disk. */
function notebookRoot(document) {
  if (document.uri.scheme !== 'file') {
    return undefined;
  }
  const folder = vscode.workspace.getWorkspaceFolder(document.uri);
  return folder ? folder.uri : vscode.Uri.joinPath(document.uri, '..');
}

/** What the webview may load from: the workspace folders, the note's folder outside them, and
 * the extension's script. */
function resourceRoots(document, extensionUri) {
  const roots = (vscode.workspace.workspaceFolders || []).map((folder) => folder.uri);
  if (document.uri.scheme === 'file' && !vscode.workspace.getWorkspaceFolder(document.uri)) {
    roots.push(vscode.Uri.joinPath(document.uri, '..'));
  }
  roots.push(vscode.Uri.joinPath(extensionUri, 'media'));
  return roots;
}

/** The file a page URL names, when it is under `base` (the webview URL of `root`) or a `file:`
 * URL: `{ uri, fragment }`; undefined for other URLs. */
function fileOfLink(href, base, root) {
  const split = (rest) => {
    const hash = rest.indexOf('#');
    const fragment = hash >= 0 ? rest.slice(hash + 1) : '';
    let path = hash >= 0 ? rest.slice(0, hash) : rest;
    const query = path.indexOf('?');
    if (query >= 0) {
      path = path.slice(0, query);
    }
    return { path, fragment: safeDecode(fragment) };
  };
  if (base && root && href.startsWith(base + '/')) {
    const { path, fragment } = split(href.slice(base.length + 1));
    const segments = path.split('/').filter((segment) => segment !== '').map(safeDecode);
    return { uri: vscode.Uri.joinPath(root, ...segments), fragment };
  }
  if (/^file:/i.test(href)) {
    const { path, fragment } = split(href);
    return { uri: vscode.Uri.parse(path), fragment };
  }
  return undefined;
}

function safeDecode(text) {
  try {
    return decodeURIComponent(text);
  } catch (error) {
    return text;
  }
}

/** The 0-based line of a place in a note: the heading whose id is `fragment` (from a preview's
 * `headings`), else a block's `^id` at a line's end; undefined when there is none. */
function lineOfFragment(fragment, headings, text) {
  if (!fragment) {
    return undefined;
  }
  const heading = (headings || []).find((candidate) => candidate.id === fragment);
  if (heading) {
    return heading.line;
  }
  if (fragment.startsWith('^') && typeof text === 'string') {
    const lines = text.split(/\r\n|\r|\n/);
    const index = lines.findIndex((line) => line.trimEnd().endsWith(' ' + fragment) || line.trimEnd() === fragment);
    return index >= 0 ? index : undefined;
  }
  return undefined;
}

/** The editor column a preview's source note shows in (not the preview's own). */
function sourceColumn(document) {
  const editor = vscode.window.visibleTextEditors.find((candidate) => candidate.document.uri.toString() === document.uri.toString());
  return editor ? editor.viewColumn : vscode.ViewColumn.One;
}

/** A side webview that shows one document's preview and follows its edits and its editor. */
class Preview {
  /** @param {vscode.TextDocument} document @param {vscode.Uri} extensionUri */
  constructor(document, extensionUri) {
    this.document = document;
    this.extensionUri = extensionUri;
    this.key = document.uri.toString();
    this.timer = undefined;
    this.sequence = 0;
    this.shown = 0;
    /** The 0-based source line the preview follows (the editor's cursor or first visible line). */
    this.line = 0;
    /** The last result shown: its `headings` place same-note links. */
    this.result = undefined;
    this.root = notebookRoot(document);
    this.panel = vscode.window.createWebviewPanel(
      'macmd.preview',
      `Preview ${basename(document.uri)}`,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, enableCommandUris: false, localResourceRoots: resourceRoots(document, extensionUri) },
    );
    /** The webview URL of the notebook's root, as sent to the server (`baseUri`). */
    this.base = this.root ? this.panel.webview.asWebviewUri(this.root).toString().replace(/\/$/, '') : undefined;
    this.panel.webview.html = messagePage('MacMD', 'Rendering…');
    this.panel.webview.onDidReceiveMessage((message) => this.receive(message));
    this.panel.onDidDispose(() => this.dispose());
  }

  /** Whether the page shows the file `uri` (the note itself, or a picture or note it embeds:
   * the result's `resources`), so its change calls for a new page. */
  shows(uri) {
    if (uri.toString() === this.key) {
      return true;
    }
    const resources = (this.result && this.result.resources) || [];
    return resources.some((resource) => vscode.Uri.parse(resource).fsPath === uri.fsPath);
  }

  /** Renders after `delay` ms; a newer call replaces a pending one. */
  schedule(delay = DEBOUNCE_MS) {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.render();
    }, delay);
  }

  async render() {
    const sequence = ++this.sequence;
    try {
      const nonce = makeNonce();
      const result = await requestPreview(this.document, this.base, nonce);
      if (this.disposed || sequence < this.shown) {
        return;
      }
      this.shown = sequence;
      this.result = result;
      this.panel.title = `Preview ${result.title || basename(this.document.uri)}`;
      this.panel.webview.html = this.page(result.html, nonce);
    } catch (error) {
      if (this.disposed || (error && error.code === CONTENT_MODIFIED)) {
        return;
      }
      if (sequence < this.shown) {
        return;
      }
      this.shown = sequence;
      this.panel.webview.html = messagePage('The preview failed', error && error.message ? error.message : String(error));
    }
  }

  /** The server's page with our policy and our script (by `nonce`, which the server's policy
   * allows too), which starts at the followed line. */
  page(html, nonce) {
    const webview = this.panel.webview;
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', 'preview.js'));
    return withPolicy(html, contentSecurityPolicy(webview.cspSource, nonce),
      `<script id="macmd-preview-script" nonce="${nonce}" src="${escapeHTML(script.toString())}" data-line="${this.line}"></script>\n`);
  }

  /** Follows the editor: brings the element of the 0-based `line` into view. */
  follow(line) {
    if (line === this.line) {
      return;
    }
    this.line = line;
    this.panel.webview.postMessage({ type: 'scroll', line });
  }

  /** A message from the page's script. */
  async receive(message) {
    try {
      if (message && message.type === 'link' && typeof message.href === 'string') {
        await this.openLink(message.href);
      } else if (message && message.type === 'reveal' && typeof message.line === 'number') {
        await this.revealSource(message.line);
      }
    } catch (error) {
      outputChannel && outputChannel.appendLine(`preview: ${error && error.message ? error.message : error}`);
    }
  }

  /** Shows the source note with the 0-based `line` at the cursor. */
  async revealSource(line) {
    const position = new vscode.Position(line, 0);
    await vscode.window.showTextDocument(this.document, {
      viewColumn: sourceColumn(this.document),
      selection: new vscode.Range(position, position),
    });
  }

  /** Opens what a link of the page names: a note (at its heading or block), another file, or
   * an external URL in the browser. */
  async openLink(href) {
    // First the notebook's files: their webview URLs are https: URLs too.
    const target = fileOfLink(href, this.base, this.root);
    if (!target) {
      if (/^(https?|mailto):/i.test(href)) {
        await vscode.env.openExternal(vscode.Uri.parse(href));
      } else if (href.startsWith('#')) {
        // A tag (`#garden`), or an anchor the page lacks: look for it among the workspace's symbols.
        await vscode.commands.executeCommand('workbench.action.quickOpen', '#' + safeDecode(href.slice(1)));
      }
      return;
    }
    if (target.uri.toString() === this.document.uri.toString()) {
      const line = lineOfFragment(target.fragment, this.result && this.result.headings, this.document.getText());
      await this.revealSource(line === undefined ? 0 : line);
      return;
    }
    if (!/\.(md|markdown)$/i.test(target.uri.path)) {
      await vscode.commands.executeCommand('vscode.open', target.uri);
      return;
    }
    const document = await vscode.workspace.openTextDocument(target.uri);
    let line;
    if (target.fragment) {
      // The target's headings with their ids, as its own preview would have them.
      const result = await (await readyClient()).sendRequest(PREVIEW_METHOD,
        { textDocument: { uri: target.uri.toString() }, options: { sourceLines: false } });
      line = lineOfFragment(target.fragment, result && result.headings, document.getText());
    }
    const position = new vscode.Position(line || 0, 0);
    await vscode.window.showTextDocument(document, {
      viewColumn: sourceColumn(this.document),
      selection: new vscode.Range(position, position),
    });
  }

  dispose() {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    if (this.timer) {
      clearTimeout(this.timer);
    }
    previews.delete(this.key);
  }
}

function basename(uri) {
  const path = uri.path || '';
  return path.slice(path.lastIndexOf('/') + 1) || uri.toString();
}

/** @type {vscode.Uri | undefined} the extension's folder (its media/ holds the page script) */
let extensionUri;

function openPreview() {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'markdown') {
    vscode.window.showInformationMessage('MacMD: open a Markdown note to preview it.');
    return;
  }
  const key = editor.document.uri.toString();
  let preview = previews.get(key);
  if (preview) {
    preview.panel.reveal(vscode.ViewColumn.Beside, true);
  } else {
    preview = new Preview(editor.document, extensionUri);
    previews.set(key, preview);
  }
  preview.line = editor.selection ? editor.selection.active.line : 0;
  preview.schedule(0);
}

/**
 * VS Code's built-in Markdown features that MacMD replaces, and the value that turns each off.
 * The manifest's `configurationDefaults` makes these the defaults; the command
 * `macmd.turnOffBuiltinMarkdownFeatures` writes them to the user's settings, for a user whose
 * own settings turned them on.
 */
const builtinMarkdownFeaturesOff = {
  'markdown.suggest.paths.enabled': false,
  'markdown.validate.enabled': false,
  'markdown.occurrencesHighlight.enabled': false,
  'markdown.updateLinksOnFileMove.enabled': 'never',
};

async function turnOffBuiltinMarkdownFeatures() {
  const settings = vscode.workspace.getConfiguration();
  for (const [key, value] of Object.entries(builtinMarkdownFeaturesOff)) {
    await settings.update(key, value, vscode.ConfigurationTarget.Global);
  }
  vscode.window.showInformationMessage(`MacMD: turned off ${Object.keys(builtinMarkdownFeaturesOff).join(', ')} in your user settings.`);
}

/**
 * `macmd.showReferences`, the command of MacMD's code lenses ("3 backlinks · 2 unlinked
 * mentions"): its arguments, as the server sends them (the note's URI, the lens's position, the
 * places as LSP locations), become VS Code's peek of references.
 */
async function showReferences(uri, position, locations) {
  const asPosition = (p) => new vscode.Position(p.line, p.character);
  const places = (locations || []).map((location) => new vscode.Location(vscode.Uri.parse(location.uri),
    new vscode.Range(asPosition(location.range.start), asPosition(location.range.end))));
  await vscode.commands.executeCommand('editor.action.showReferences', vscode.Uri.parse(uri), asPosition(position), places);
}

/**
 * `MacMD: Show Unlinked Mentions`: the places in other notes that name the active note without
 * a link (`macmd/unlinkedMentions`), in the references peek at the cursor; a message when there
 * are none. The light bulb on a mention links it.
 */
async function showUnlinkedMentions() {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'markdown') {
    vscode.window.showInformationMessage('MacMD: open a Markdown note to list its unlinked mentions.');
    return;
  }
  const uri = editor.document.uri.toString();
  const mentions = await (await readyClient()).sendRequest('macmd/unlinkedMentions', { textDocument: { uri } });
  if (!mentions || mentions.length === 0) {
    vscode.window.showInformationMessage('MacMD: no unlinked mentions of this note.');
    return;
  }
  await showReferences(uri, editor.selection.active, mentions);
}

/**
 * `MacMD: Search Notebook`: asks for a query, then lists the notes of every notebook holding its
 * words (`macmd/search`: words, "phrases", tag:, path:, title:), best first, in a quick pick:
 * each note's title and path, its excerpt below with the matched words marked; the one picked
 * opens at its best match. A message when nothing matches.
 */
async function searchNotebook() {
  const query = await vscode.window.showInputBox({ prompt: 'Search the notebook (words, "phrases", tag:, path:, title:)',
                                                   placeHolder: 'soil "ph test" tag:garden' });
  if (!query || !query.trim()) return;
  const hits = await (await readyClient()).sendRequest('macmd/search', { query, limit: 100 });
  if (!hits || hits.length === 0) {
    vscode.window.showInformationMessage(`MacMD: no note matches ${query}.`);
    return;
  }
  const folders = (vscode.workspace.workspaceFolders || []).map((folder) => folder.uri.fsPath + '/');
  const items = hits.map((hit) => {
    const file = vscode.Uri.parse(hit.uri);
    const folder = folders.find((prefix) => file.fsPath.startsWith(prefix));
    // The matches are UTF-16 offsets of the excerpt (the client's encoding): JavaScript's own.
    let detail = '';
    let at = 0;
    for (const match of hit.matches || []) {
      detail += hit.excerpt.slice(at, match.start) + '**' + hit.excerpt.slice(match.start, match.end) + '**';
      at = match.end;
    }
    detail += hit.excerpt.slice(at);
    return { label: hit.title || file.path.split('/').pop(), description: folder ? file.fsPath.slice(folder.length) : file.fsPath,
             detail, alwaysShow: true, hit };
  });
  const picked = await vscode.window.showQuickPick(items, { title: `MacMD: ${query}`, matchOnDescription: false, matchOnDetail: false });
  if (!picked) return;
  const start = new vscode.Position(picked.hit.range.start.line, picked.hit.range.start.character);
  const end = new vscode.Position(picked.hit.range.end.line, picked.hit.range.end.character);
  const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(picked.hit.uri));
  await vscode.window.showTextDocument(document, { selection: new vscode.Range(start, end) });
}

/** @param {vscode.ExtensionContext} context */
function activate(context) {
  extensionUri = context.extensionUri;
  outputChannel = vscode.window.createOutputChannel('MacMD');
  context.subscriptions.push(outputChannel);
  startClient().catch(() => undefined);

  context.subscriptions.push(
    vscode.commands.registerCommand('macmd.preview', openPreview),
    vscode.commands.registerCommand('macmd.restartServer', restartClient),
    vscode.commands.registerCommand('macmd.turnOffBuiltinMarkdownFeatures', turnOffBuiltinMarkdownFeatures),
    vscode.commands.registerCommand('macmd.showReferences', showReferences),
    vscode.commands.registerCommand('macmd.unlinkedMentions', showUnlinkedMentions),
    vscode.commands.registerCommand('macmd.search', searchNotebook),
    // A page follows its note's edits and those of the notes it embeds.
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.contentChanges.length === 0) {
        return;
      }
      for (const preview of previews.values()) {
        if (preview.shows(event.document.uri)) preview.schedule();
      }
    }),
    vscode.workspace.onDidSaveTextDocument((document) => {
      for (const preview of previews.values()) {
        if (preview.shows(document.uri)) preview.schedule();
      }
    }),
    // The preview follows its editor: the cursor's line, else the first visible line.
    vscode.window.onDidChangeTextEditorSelection((event) => {
      const preview = previews.get(event.textEditor.document.uri.toString());
      if (preview && event.selections.length > 0) {
        preview.follow(event.selections[0].active.line);
      }
    }),
    vscode.window.onDidChangeTextEditorVisibleRanges((event) => {
      const preview = previews.get(event.textEditor.document.uri.toString());
      if (preview && event.visibleRanges.length > 0) {
        preview.follow(event.visibleRanges[0].start.line);
      }
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('macmd.path')) {
        restartClient();
      } else if (event.affectsConfiguration('macmd.preview.theme')) {
        for (const preview of previews.values()) {
          preview.schedule(0);
        }
      }
    }),
    { dispose: () => previews.forEach((preview) => preview.panel.dispose()) },
  );
}

function deactivate() {
  const old = client;
  client = undefined;
  clientReady = undefined;
  return old ? old.stop() : undefined;
}

module.exports = { activate, deactivate, serverSettings, fileOfLink, lineOfFragment, contentSecurityPolicy, builtinMarkdownFeaturesOff };
