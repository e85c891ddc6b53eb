// MacMD for VS Code: runs `macmd lsp` through vscode-languageclient 9 for Markdown documents, and
// a live preview webview that asks the server for `macmd/preview` as you type.
//
// Invariants:
//   * One language client at a time; a change of `macmd.path` replaces it.
//   * One preview panel per document. Renders are debounced (150 ms) and numbered, so a slow
//     answer never overwrites a newer one; a ContentModified (-32801) answer is dropped because a
//     newer request follows it.
//   * The webview runs no script: its CSP allows inline styles and nothing else.

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

function previewTheme() {
  return configuration().get('preview.theme') || 'light';
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
    initializationOptions: { preview: { theme: previewTheme() } },
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

/** Asks the server for the full preview page of a document. */
async function requestPreview(document) {
  if (!client || !clientReady) {
    startClient();
  }
  await clientReady;
  return client.sendRequest(PREVIEW_METHOD, {
    textDocument: { uri: document.uri.toString() },
    options: { fullPage: true, theme: previewTheme(), sourceLines: true },
  });
}

function escapeHTML(text) {
  return String(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const CSP = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';">`;

/** The server's page with our CSP as the first thing in <head>. */
function withPolicy(html) {
  const head = html.search(/<head(\s[^>]*)?>/i);
  if (head >= 0) {
    const end = html.indexOf('>', head) + 1;
    return html.slice(0, end) + CSP + html.slice(end);
  }
  return `<!DOCTYPE html><html><head>${CSP}</head><body>${html}</body></html>`;
}

function messagePage(title, message) {
  return withPolicy(`<!DOCTYPE html><html><head><meta charset="utf-8"><style>
body { font: 14px/1.5 var(--vscode-font-family, sans-serif); color: var(--vscode-foreground); padding: 1em 2em; }
h1 { font-size: 1.2em; }
</style></head><body><h1>${escapeHTML(title)}</h1><p>${escapeHTML(message)}</p></body></html>`);
}

/** A side webview that shows one document's preview and follows its edits. */
class Preview {
  /** @param {vscode.TextDocument} document */
  constructor(document) {
    this.document = document;
    this.key = document.uri.toString();
    this.timer = undefined;
    this.sequence = 0;
    this.shown = 0;
    this.panel = vscode.window.createWebviewPanel(
      'macmd.preview',
      `Preview ${basename(document.uri)}`,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: false, enableCommandUris: false, localResourceRoots: [] },
    );
    this.panel.webview.html = messagePage('MacMD', 'Rendering…');
    this.panel.onDidDispose(() => this.dispose());
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
      const result = await requestPreview(this.document);
      if (this.disposed || sequence < this.shown) {
        return;
      }
      this.shown = sequence;
      this.panel.title = `Preview ${result.title || basename(this.document.uri)}`;
      this.panel.webview.html = withPolicy(result.html);
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
    preview = new Preview(editor.document);
    previews.set(key, preview);
  }
  preview.schedule(0);
}

/** @param {vscode.ExtensionContext} context */
function activate(context) {
  outputChannel = vscode.window.createOutputChannel('MacMD');
  context.subscriptions.push(outputChannel);
  startClient().catch(() => undefined);

  context.subscriptions.push(
    vscode.commands.registerCommand('macmd.preview', openPreview),
    vscode.workspace.onDidChangeTextDocument((event) => {
      const preview = previews.get(event.document.uri.toString());
      if (preview && event.contentChanges.length > 0) {
        preview.schedule();
      }
    }),
    vscode.workspace.onDidSaveTextDocument((document) => {
      const preview = previews.get(document.uri.toString());
      if (preview) {
        preview.schedule();
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

module.exports = { activate, deactivate };
