// A stand-in for the `vscode` module and for `vscode-languageclient/node`, enough to run
// extension.js in Node (no VS Code on the machines that run the tests): the parts of the API the
// extension uses, recording what it asks of the editor. The language client is real enough to
// talk to the real `macmd lsp` over stdio (Content-Length framing, initialize, the server's own
// requests through the extension's middleware), so the previews the tests see are the server's.
//
// Invariants: no dependency but Node's own modules; every call the extension makes on the editor
// is recorded in `calls` (`showTextDocument`, `openExternal`, `executeCommand`, `postMessage`).

'use strict';

const childProcess = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const calls = [];
const listeners = {};

/** An event as VS Code's API has them: subscribe with `event(listener)`, fire with `fire(name, value)`. */
function event(name) {
  listeners[name] = listeners[name] || [];
  return (listener) => {
    listeners[name].push(listener);
    return { dispose: () => { listeners[name] = listeners[name].filter((other) => other !== listener); } };
  };
}

function fire(name, value) {
  for (const listener of listeners[name] || []) {
    listener(value);
  }
}

/** VS Code's URI encoding of a path or authority: every byte but unreserved ones and `/`. */
function encodePath(text) {
  return text.split('/').map((segment) => encodeURIComponent(segment).replace(/[!'()*]/g,
    (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())).join('/');
}

class Uri {
  constructor(scheme, authority, path, query = '', fragment = '') {
    this.scheme = scheme;
    this.authority = authority;
    this.path = path;
    this.query = query;
    this.fragment = fragment;
  }

  static file(filePath) { return new Uri('file', '', filePath); }

  static parse(text) {
    const match = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(text);
    if (!match) {
      throw new Error(`not a URI: ${text}`);
    }
    return new Uri(match[1], decodeURIComponent(match[2] || ''), decodeURIComponent(match[3] || ''), match[4] || '',
      match[5] ? decodeURIComponent(match[5]) : '');
  }

  static joinPath(uri, ...segments) {
    return new Uri(uri.scheme, uri.authority, path.posix.normalize(path.posix.join(uri.path, ...segments)));
  }

  get fsPath() { return this.path; }

  with(change) {
    return new Uri(change.scheme ?? this.scheme, change.authority ?? this.authority, change.path ?? this.path,
      change.query ?? this.query, change.fragment ?? this.fragment);
  }

  toString() {
    let text = `${this.scheme}:`;
    if (this.authority !== '' || this.scheme === 'file') {
      text += '//' + encodeURIComponent(this.authority);
    }
    text += encodePath(this.path);
    if (this.query) text += '?' + this.query;
    if (this.fragment) text += '#' + encodeURIComponent(this.fragment);
    return text;
  }
}

class Position {
  constructor(line, character) { this.line = line; this.character = character; }
}

class Range {
  constructor(start, end) { this.start = start; this.end = end; }
}

class Location {
  constructor(uri, range) { this.uri = uri; this.range = range; }
}

const ViewColumn = { Active: -1, Beside: -2, One: 1, Two: 2 };

/** A text document of a file on disk. */
function textDocument(uri) {
  return {
    uri,
    languageId: /\.(md|markdown)$/.test(uri.path) ? 'markdown' : 'plaintext',
    version: 1,
    getText: () => fs.readFileSync(uri.fsPath, 'utf8'),
  };
}

/** The settings, by section and key (`macmd` → `{ path, preview: { theme } }`). */
const settings = { macmd: { path: 'macmd', preview: { theme: '' }, trace: { server: 'off' } } };

function getConfiguration(section) {
  const values = settings[section] || {};
  // Like VS Code's WorkspaceConfiguration: the values as members, and `get` by dotted key.
  return Object.assign(JSON.parse(JSON.stringify(values)), {
    get(key) {
      return key.split('.').reduce((value, part) => (value == null ? undefined : value[part]), values);
    },
    async update(key, value, target) {
      calls.push({ name: 'updateSetting', key: section ? `${section}.${key}` : key, value, target });
    },
  });
}

/** The webview of a panel: a resource URL per file, and the messages posted to the page. */
function makeWebview() {
  const webview = {
    html: '',
    cspSource: 'https://*.vscode-cdn.net',
    asWebviewUri: (uri) => new Uri('https', 'file+.vscode-resource.vscode-cdn.net', uri.path),
    postMessage(message) {
      calls.push({ name: 'postMessage', message });
      return Promise.resolve(true);
    },
    onDidReceiveMessage(listener) {
      webview.receive = listener;
      return { dispose() {} };
    },
  };
  return webview;
}

const panels = [];

const vscode = {
  Uri, Position, Range, Location, ViewColumn,
  ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
  workspace: {
    workspaceFolders: [],
    getWorkspaceFolder(uri) {
      return vscode.workspace.workspaceFolders
        .filter((folder) => uri.path === folder.uri.path || uri.path.startsWith(folder.uri.path + '/'))
        .sort((a, b) => b.uri.path.length - a.uri.path.length)[0];
    },
    getConfiguration,
    async openTextDocument(uri) { return textDocument(uri); },
    onDidChangeTextDocument: event('didChangeTextDocument'),
    onDidSaveTextDocument: event('didSaveTextDocument'),
    onDidChangeConfiguration: event('didChangeConfiguration'),
  },
  window: {
    activeTextEditor: undefined,
    visibleTextEditors: [],
    createOutputChannel: () => ({ appendLine(line) { calls.push({ name: 'log', line }); }, dispose() {} }),
    createWebviewPanel(viewType, title, showOptions, options) {
      const panel = {
        viewType, title, showOptions, options,
        webview: makeWebview(),
        reveal() {},
        onDidDispose: (listener) => { panel.disposeListener = listener; return { dispose() {} }; },
        dispose() { if (panel.disposeListener) panel.disposeListener(); },
      };
      panels.push(panel);
      return panel;
    },
    async showTextDocument(document, options) {
      calls.push({ name: 'showTextDocument', uri: document.uri.toString(), options });
      return { document };
    },
    showErrorMessage: async (message) => { calls.push({ name: 'showErrorMessage', message }); },
    showInformationMessage: async (message) => { calls.push({ name: 'showInformationMessage', message }); },
    // What a test has the user answer: the text typed in an input box, the item picked.
    answers: { inputBox: undefined, quickPick: () => undefined },
    async showInputBox(options) {
      calls.push({ name: 'showInputBox', options });
      return vscode.window.answers.inputBox;
    },
    async showQuickPick(items, options) {
      calls.push({ name: 'showQuickPick', items, options });
      return vscode.window.answers.quickPick(items);
    },
    onDidChangeTextEditorSelection: event('didChangeTextEditorSelection'),
    onDidChangeTextEditorVisibleRanges: event('didChangeTextEditorVisibleRanges'),
  },
  commands: {
    registered: {},
    registerCommand(name, callback) {
      vscode.commands.registered[name] = callback;
      return { dispose() {} };
    },
    async executeCommand(name, ...args) {
      calls.push({ name: 'executeCommand', command: name, args });
      if (vscode.commands.registered[name]) {
        return vscode.commands.registered[name](...args);
      }
      return undefined;
    },
  },
  env: {
    async openExternal(uri) {
      calls.push({ name: 'openExternal', uri: uri.toString() });
      return true;
    },
  },
};

// MARK: The language client

/** vscode-languageclient's LanguageClient over stdio, as much as the extension uses. */
class LanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    this.serverOptions = serverOptions;
    this.clientOptions = clientOptions;
    this.nextId = 1;
    this.pending = new Map();
    this.requests = [];
    this.configurationAnswers = [];
    this.buffer = Buffer.alloc(0);
    LanguageClient.instances.push(this);
  }

  async start() {
    this.process = childProcess.spawn(this.serverOptions.command, this.serverOptions.args, { stdio: ['pipe', 'pipe', 'inherit'] });
    this.process.stdout.on('data', (chunk) => this.read(chunk));
    this.process.on('error', (error) => { for (const [, { reject }] of this.pending) reject(error); });
    const folders = vscode.workspace.workspaceFolders.map((folder) => ({ uri: folder.uri.toString(), name: folder.name }));
    await this.call('initialize', {
      processId: process.pid,
      rootUri: folders.length > 0 ? folders[0].uri : null,
      workspaceFolders: folders,
      initializationOptions: this.clientOptions.initializationOptions,
      capabilities: {
        workspace: { configuration: true, workspaceFolders: true, didChangeConfiguration: { dynamicRegistration: true } },
        general: { positionEncodings: ['utf-16'] },
      },
    });
    this.notify('initialized', {});
  }

  async stop() {
    if (!this.process) return;
    await this.call('shutdown', null).catch(() => undefined);
    this.notify('exit', null);
    await new Promise((resolve) => {
      const timer = setTimeout(() => { this.process.kill(); resolve(); }, 5000);
      this.process.on('exit', () => { clearTimeout(timer); resolve(); });
    });
  }

  sendRequest(method, params) {
    this.requests.push({ method, params });
    return this.call(method, params);
  }

  call(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.write({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method, params) { this.write({ jsonrpc: '2.0', method, params }); }

  write(message) {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.process.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
  }

  read(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.slice(0, headerEnd).toString('ascii'))[1]);
      if (this.buffer.length < headerEnd + 4 + length) return;
      const message = JSON.parse(this.buffer.slice(headerEnd + 4, headerEnd + 4 + length).toString('utf8'));
      this.buffer = this.buffer.slice(headerEnd + 4 + length);
      this.handle(message);
    }
  }

  async handle(message) {
    if (message.id !== undefined && message.method === undefined) {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (!waiting) return;
      if (message.error) waiting.reject(message.error); else waiting.resolve(message.result);
      return;
    }
    if (message.id === undefined) return; // a notification: diagnostics, logs, progress
    let result = null;
    if (message.method === 'workspace/configuration') {
      // As vscode-languageclient does: the middleware, given the plain settings as `next`.
      const next = async (params) => params.items.map((item) => JSON.parse(JSON.stringify(settings[item.section] || null)));
      const middleware = this.clientOptions.middleware && this.clientOptions.middleware.workspace;
      result = middleware && middleware.configuration
        ? await middleware.configuration(message.params, {}, next)
        : await next(message.params);
      this.configurationAnswers.push(result);
    }
    this.write({ jsonrpc: '2.0', id: message.id, result });
  }
}
LanguageClient.instances = [];

const languageClient = { LanguageClient, RevealOutputChannelOn: { Info: 1, Warn: 2, Error: 3, Never: 4 } };

/** Makes `require('vscode')` and `require('vscode-languageclient/node')` return the fakes. */
function install() {
  const Module = require('node:module');
  const load = Module._load;
  Module._load = function (request, parent, isMain) {
    if (request === 'vscode') return vscode;
    if (request === 'vscode-languageclient/node') return languageClient;
    return load.call(this, request, parent, isMain);
  };
}

module.exports = { vscode, languageClient, install, calls, fire, panels, settings, textDocument, Uri };
