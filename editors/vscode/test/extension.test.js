// The VS Code extension in Node, with a fake `vscode` module (test/fake-vscode.js) and the real
// `macmd lsp`: the preview webview's policy, resources and script, its links, scroll sync and
// theme, and the webview script (media/preview.js) on a fake page. Run by
// Tests/EditorTests/VSCodeExtensionTests.swift as `node test/extension.test.js` with
// MACMD_TEST_BIN (the built macmd) and MACMD_TEST_NOTEBOOK (a copy of Fixtures/notebook whose
// `.macmd.json` sets the theme `ocean`) in the environment.

'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');

const fake = require('./fake-vscode');
fake.install();
const { vscode, calls, fire, panels, settings, textDocument, Uri } = fake;
const extension = require('../extension');
const pageScript = require('../media/preview');

const notebook = process.env.MACMD_TEST_NOTEBOOK;
const bin = process.env.MACMD_TEST_BIN;

/** Waits until `predicate` returns a truthy value (checked every 20 ms), at most `ms`. */
async function waitFor(predicate, ms = 20000, what = 'a condition') {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The 0-based line of the first line of `file` (in the notebook) that `matches`. */
function lineOf(file, matches) {
  return fs.readFileSync(path.join(notebook, file), 'utf8').split(/\r\n|\r|\n/).findIndex(matches);
}

/** The `href`s and `src`s of a page. */
function urls(html) {
  return [...html.matchAll(/(?:href|src)="([^"]*)"/g)].map((match) => match[1].replace(/&amp;/g, '&'));
}

test('the extension previews a note of the notebook through the real server', { skip: !notebook || !bin }, async (t) => {
  const root = Uri.file(notebook);
  vscode.workspace.workspaceFolders = [{ uri: root, name: path.basename(notebook), index: 0 }];
  settings.macmd.path = bin;
  const context = { subscriptions: [], extensionUri: Uri.file(path.resolve(__dirname, '..')) };
  extension.activate(context);
  t.after(async () => {
    for (const subscription of context.subscriptions) subscription.dispose && subscription.dispose();
    await extension.deactivate();
  });

  const note = textDocument(Uri.file(path.join(notebook, 'journal', '2026-04-12.md')));
  const editor = { document: note, viewColumn: vscode.ViewColumn.One, selection: { active: new vscode.Position(0, 0) } };
  vscode.window.activeTextEditor = editor;
  vscode.window.visibleTextEditors = [editor];
  await vscode.commands.executeCommand('macmd.preview');
  const panel = panels[0];
  const webview = panel.webview;
  const base = webview.asWebviewUri(root).toString();

  await t.test('the webview may load the notebook and the script only', () => {
    assert.equal(panel.options.enableScripts, true);
    assert.equal(panel.options.enableCommandUris, false);
    assert.deepEqual(panel.options.localResourceRoots.map(String),
      [root.toString(), Uri.file(path.resolve(__dirname, '..', 'media')).toString()]);
  });

  // Until the first scan has reached soil-tests.md, the wiki-link to it is left as written:
  // render again until it is resolved, as the next keystroke would.
  const client = fake.languageClient.LanguageClient.instances[0];
  const resolved = `${base}/soil-tests.md`;
  await waitFor(async () => {
    if (webview.html.includes(`href="${resolved}"`)) return true;
    await vscode.commands.executeCommand('macmd.preview');
    await new Promise((resolve) => setTimeout(resolve, 100));
    return webview.html.includes(`href="${resolved}"`);
  }, 30000, 'the resolved wiki-links');

  await t.test('the request asks for URLs under the webview URL of the root, with no theme', () => {
    const request = client.requests.find((candidate) => candidate.method === 'macmd/preview');
    const { scriptNonce, ...options } = request.params.options;
    assert.deepEqual({ ...request.params, options }, {
      textDocument: { uri: note.uri.toString() },
      options: { fullPage: true, sourceLines: true, baseUri: base },
    });
    assert.match(scriptNonce, /^[A-Za-z0-9]{32}$/, 'a fresh nonce for the script, which the server page allows');
  });

  await t.test('the page has our policy, our script by nonce, and images from the notebook', () => {
    const html = webview.html;
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
    assert.ok(policy, html.slice(0, 400));
    const nonce = /script-src 'nonce-([A-Za-z0-9]+)';/.exec(policy[1])[1];
    assert.equal(policy[1], `default-src 'none'; img-src ${webview.cspSource} data:; media-src ${webview.cspSource}; ` +
      `font-src ${webview.cspSource}; style-src 'unsafe-inline'; script-src 'nonce-${nonce}';`);
    assert.ok(html.indexOf(policy[0]) < html.indexOf('<style>'), 'the policy comes first in <head>');
    // The server's own policy (both apply) allows no script but ours.
    const policies = [...html.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/g)].map((match) => match[1]);
    assert.equal(policies.length, 2, policies.join('\n'));
    assert.ok(policies[1].startsWith("default-src 'none';"), policies[1]);
    assert.ok(policies[1].endsWith(`; script-src 'nonce-${nonce}'`), policies[1]);
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    assert.equal(scripts.length, 1, scripts.join('\n'));
    assert.ok(scripts[0].includes(`nonce="${nonce}"`), scripts[0]);
    assert.ok(scripts[0].includes(`src="${webview.asWebviewUri(Uri.file(path.resolve(__dirname, '..', 'media', 'preview.js')))}"`), scripts[0]);
    // Every image of the page is under the root's webview URL and names a file that exists.
    const images = [...html.matchAll(/<img [^>]*src="([^"]*)"/g)].map((match) => match[1]);
    assert.deepEqual(images, [`${base}/plot-map.png`]);
    for (const url of urls(html).filter((url) => url.startsWith(base))) {
      const target = extension.fileOfLink(url, base, root);
      assert.ok(fs.existsSync(target.uri.fsPath), `${url} names ${target.uri.fsPath}, which exists`);
    }
    // The notebook's theme applies when the user set none.
    assert.ok(html.includes('<html data-theme="ocean">'), html.slice(0, 200));
  });

  await t.test('links open notes at their heading or block, files, tags and the web', async () => {
    const opened = async (href) => {
      const before = calls.length;
      await webview.receive({ type: 'link', href });
      return calls.slice(before);
    };
    const soil = Uri.file(path.join(notebook, 'soil-tests.md')).toString();
    let made = await opened(`${base}/soil-tests.md#lime-calculation`);
    assert.deepEqual(made.map((call) => [call.name, call.uri]), [['showTextDocument', soil]]);
    assert.equal(made[0].options.selection.start.line, lineOf('soil-tests.md', (line) => /^#+ Lime calculation/.test(line)));
    assert.equal(made[0].options.viewColumn, vscode.ViewColumn.One, 'beside the preview, where the note is');
    made = await opened(`${base}/soil-tests.md#%5Eph-2026`);
    assert.equal(made[0].options.selection.start.line, lineOf('soil-tests.md', (line) => line.trimEnd().endsWith('^ph-2026')));
    made = await opened(`${base}/compost.md`);
    assert.deepEqual([made[0].uri, made[0].options.selection.start.line], [Uri.file(path.join(notebook, 'compost.md')).toString(), 0]);
    // The same note: the heading's line from the preview's own headings.
    made = await opened(`${base}/journal/2026-04-12.md#also-today`);
    assert.deepEqual([made[0].uri, made[0].options.selection.start.line], [note.uri.toString(), lineOf('journal/2026-04-12.md', (line) => line === '## Also today')]);
    // Other files open as VS Code opens them; the web in the browser; a tag searches symbols.
    made = await opened(`${base}/plot-map.png`);
    assert.deepEqual([made[0].command, made[0].args[0].toString()], ['vscode.open', Uri.file(path.join(notebook, 'plot-map.png')).toString()]);
    made = await opened('https://example.com/a?b=1');
    assert.deepEqual(made.map((call) => [call.name, call.uri]), [['openExternal', 'https://example.com/a?b=1']]);
    made = await opened('#journal');
    assert.deepEqual(made.map((call) => [call.command, call.args]), [['workbench.action.quickOpen', ['#journal']]]);
    assert.deepEqual(await opened('javascript:alert(1)'), [], 'nothing else is opened');
  });

  await t.test('the preview follows the editor, and a double-click reveals the source line', async () => {
    const posted = () => calls.filter((call) => call.name === 'postMessage').map((call) => call.message);
    fire('didChangeTextEditorSelection', { textEditor: editor, selections: [{ active: new vscode.Position(23, 4) }] });
    fire('didChangeTextEditorVisibleRanges', { textEditor: editor, visibleRanges: [new vscode.Range(new vscode.Position(10, 0), new vscode.Position(40, 0))] });
    fire('didChangeTextEditorVisibleRanges', { textEditor: editor, visibleRanges: [new vscode.Range(new vscode.Position(10, 0), new vscode.Position(41, 0))] });
    assert.deepEqual(posted().slice(-2), [{ type: 'scroll', line: 23 }, { type: 'scroll', line: 10 }], 'each new line once');
    // An edit re-renders: the new page starts at the line the preview follows.
    fire('didChangeTextDocument', { document: note, contentChanges: [{}] });
    await waitFor(() => webview.html.includes('data-line="10"'), 5000, 'the page of the edit');
    const before = calls.length;
    await webview.receive({ type: 'reveal', line: 23 });
    const shown = calls.slice(before);
    assert.deepEqual([shown[0].name, shown[0].uri, shown[0].options.selection.start.line, shown[0].options.viewColumn],
      ['showTextDocument', note.uri.toString(), 23, vscode.ViewColumn.One]);
  });

  await t.test('a code lens of the server shows its places in VS Code\'s references peek', async () => {
    const soil = Uri.file(path.join(notebook, 'soil-tests.md')).toString();
    const lenses = await client.sendRequest('textDocument/codeLens', { textDocument: { uri: soil } });
    const title = await client.sendRequest('codeLens/resolve', lenses[0]);
    assert.equal(title.command.command, 'macmd.showReferences');
    assert.match(title.command.title, /^\d+ backlinks$/);
    const before = calls.length;
    await vscode.commands.executeCommand(title.command.command, ...title.command.arguments);
    const peek = calls.slice(before).find((call) => call.command === 'editor.action.showReferences');
    assert.ok(peek, 'editor.action.showReferences is run');
    const [uri, position, places] = peek.args;
    assert.equal(uri.toString(), soil);
    assert.deepEqual([position.line, position.character], [title.range.start.line, title.range.start.character]);
    assert.equal(places.length, Number(title.command.title.split(' ')[0]));
    assert.ok(places.every((place) => place instanceof vscode.Location && place.range.start instanceof vscode.Position));
  });

  await t.test('the unlinked mentions of the active note show in the references peek', async () => {
    const compost = Uri.file(path.join(notebook, 'compost.md'));
    const previous = vscode.window.activeTextEditor;
    vscode.window.activeTextEditor = { document: textDocument(compost), viewColumn: vscode.ViewColumn.One,
                                       selection: { active: new vscode.Position(7, 2) } };
    const before = calls.length;
    await vscode.commands.executeCommand('macmd.unlinkedMentions');
    vscode.window.activeTextEditor = previous;
    const peek = calls.slice(before).find((call) => call.command === 'editor.action.showReferences');
    assert.ok(peek, 'editor.action.showReferences is run');
    const [uri, position, places] = peek.args;
    assert.equal(uri.toString(), compost.toString());
    assert.deepEqual([position.line, position.character], [7, 2]);
    assert.deepEqual(places.map((place) => `${path.basename(place.uri.fsPath)}:${place.range.start.line + 1}`),
      ['companion-planting.md:45', 'index.md:44', 'pests-and-diseases.md:12', 'pests-and-diseases.md:13']);
  });

  await t.test('Search Notebook lists the hits in a quick pick and opens the one picked at its match', async () => {
    vscode.window.answers.inputBox = '"weed seeds"';
    vscode.window.answers.quickPick = (items) => items[0];
    const before = calls.length;
    await vscode.commands.executeCommand('macmd.search');
    const shown = calls.slice(before);
    const pick = shown.find((call) => call.name === 'showQuickPick');
    assert.ok(pick, 'a quick pick is shown');
    assert.deepEqual(pick.items.map((item) => [item.label, item.description]), [['Compost', 'compost.md']]);
    assert.match(pick.items[0].detail, /kill most \*\*weed\*\* \*\*seeds\*\*\. Finished/);
    const opened = shown.find((call) => call.name === 'showTextDocument');
    assert.equal(path.basename(Uri.parse(opened.uri).fsPath), 'compost.md');
    assert.deepEqual([opened.options.selection.start.line, opened.options.selection.start.character], [81, 45]);
    vscode.window.answers.inputBox = 'nothinglikethis';
    await vscode.commands.executeCommand('macmd.search');
    assert.deepEqual(calls.at(-1), { name: 'showInformationMessage', message: 'MacMD: no note matches nothinglikethis.' });
  });

  await t.test('an edit of a note the page embeds renders it again', async () => {
    assert.ok(webview.html.includes('<div class="embed" data-source="soil-tests.md#ph-readings"'), 'the embedded section');
    const asked = () => client.requests.filter((candidate) => candidate.method === 'macmd/preview').length;
    const before = asked();
    const embedded = textDocument(Uri.file(path.join(notebook, 'soil-tests.md')));
    fire('didChangeTextDocument', { document: embedded, contentChanges: [{}] });
    await waitFor(() => asked() > before, 5000, 'a new page after the embedded note changed');
    const count = asked();
    fire('didChangeTextDocument', { document: textDocument(Uri.file(path.join(notebook, 'watering.md'))), contentChanges: [{}] });
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.equal(asked(), count, 'a note the page does not show changes nothing');
  });

  await t.test('the theme the user sets wins, and the server hears only its own settings', async () => {
    settings.macmd.preview.theme = 'dark';
    fire('didChangeConfiguration', { affectsConfiguration: (name) => name === 'macmd.preview.theme' });
    await waitFor(() => webview.html.includes('<html data-theme="dark">'), 5000, 'the dark page');
    const request = client.requests.filter((candidate) => candidate.method === 'macmd/preview').pop();
    assert.equal(request.params.options.theme, 'dark');
    assert.deepEqual(client.clientOptions.initializationOptions, {}, 'no path, no trace, no unset theme');
    for (const answer of client.configurationAnswers) assert.deepEqual(answer, [{}]);
    assert.ok(client.configurationAnswers.length > 0, 'the server asked for its settings');
  });
});

test('serverSettings drops the extension\'s keys and unset values', () => {
  assert.deepEqual(extension.serverSettings({ path: '/x/macmd', trace: { server: 'off' }, preview: { theme: null } }), {});
  assert.deepEqual(extension.serverSettings({ path: 'macmd', preview: { theme: '' } }), {}, 'the setting\'s "(the notebook\'s)"');
  assert.deepEqual(extension.serverSettings({ path: 'macmd', preview: { theme: 'dark' }, diagnostics: { 'broken-link': 'off', x: null } }),
    { preview: { theme: 'dark' }, diagnostics: { 'broken-link': 'off' } });
});

test('links map back to files under the base, and fragments to lines', () => {
  const root = Uri.file('/home/ann/My Notes');
  const base = 'https://file%2B.vscode-resource.vscode-cdn.net/home/ann/My%20Notes';
  const target = extension.fileOfLink(`${base}/garden/B%C3%A9%20ds/soil.md?v=1#pH%20level`, base, root);
  assert.deepEqual([target.uri.path, target.fragment], ['/home/ann/My Notes/garden/Bé ds/soil.md', 'pH level']);
  assert.equal(extension.fileOfLink(`${base}/../up.md`, base, root).uri.path, '/home/ann/up.md');
  assert.equal(extension.fileOfLink('file:///etc/hosts#x', base, root).uri.path, '/etc/hosts');
  assert.equal(extension.fileOfLink('https://example.com/x.md', base, root), undefined);
  assert.equal(extension.fileOfLink(`${base}x/other.md`, base, root), undefined, 'a sibling folder is not under the base');
  const headings = [{ id: 'one', line: 2 }, { id: 'two', line: 7 }];
  assert.equal(extension.lineOfFragment('two', headings, ''), 7);
  assert.equal(extension.lineOfFragment('^blk', headings, 'a\nb\nSome text ^blk\n'), 2);
  assert.equal(extension.lineOfFragment('three', headings, ''), undefined);
  assert.equal(extension.lineOfFragment('', headings, ''), undefined);
});

// MARK: The page script on a fake page

/** A fake element: a tag, attributes, a parent, and what scrolling to it did. */
function element(tagName, attributes = {}, parentElement = null) {
  return {
    tagName, parentElement, scrolled: 0,
    getAttribute: (name) => (name in attributes ? String(attributes[name]) : null),
    scrollIntoView() { this.scrolled += 1; },
  };
}

test('the page script finds the element of a source line', () => {
  const blocks = [element('h1', { 'data-source-line': 3 }), element('p', { 'data-source-line': 5 }), element('ul', { 'data-source-line': 9 })];
  assert.equal(pageScript.elementForLine(blocks, 0), blocks[0], 'before the first block: the first');
  assert.equal(pageScript.elementForLine(blocks, 2), blocks[0]);
  assert.equal(pageScript.elementForLine(blocks, 7), blocks[1]);
  assert.equal(pageScript.elementForLine(blocks, 100), blocks[2]);
  assert.equal(pageScript.elementForLine([], 4), null);
  const item = element('li', {}, blocks[2]);
  assert.equal(pageScript.sourceLineOf(element('em', {}, item)), 8);
  assert.equal(pageScript.sourceLineOf(element('em')), null);
});

test('the page script posts links, scrolls to anchors, reveals on double-click, follows scroll messages', () => {
  const heading = element('h2', { id: 'also-today', 'data-source-line': 22 });
  const paragraph = element('p', { 'data-source-line': 28 });
  const handlers = {};
  const posted = [];
  const document = {
    currentScript: element('script', { 'data-line': 27 }),
    getElementById: (id) => (id === 'also-today' ? heading : null),
    querySelectorAll: () => [heading, paragraph],
    addEventListener: (name, handler) => { handlers[name] = handler; },
  };
  const window = { addEventListener: (name, handler) => { handlers['window.' + name] = handler; } };
  pageScript.start(window, document, { postMessage: (message) => posted.push(message) });
  assert.equal(paragraph.scrolled, 1, 'a new page starts at the followed line (data-line)');

  const click = (target) => {
    const event = { target, prevented: false, preventDefault() { this.prevented = true; } };
    handlers.click(event);
    return event.prevented;
  };
  assert.equal(click(element('span', {}, element('a', { href: '#also-today' }))), true);
  assert.equal(heading.scrolled, 1, 'an in-page anchor scrolls');
  assert.equal(click(element('a', { href: 'https://file%2B.x/n/soil.md#ph' })), true);
  assert.equal(click(element('a', { href: '#journal' })), true);
  assert.equal(click(element('p')), false, 'a click outside links is the page\'s');
  assert.deepEqual(posted, [{ type: 'link', href: 'https://file%2B.x/n/soil.md#ph' }, { type: 'link', href: '#journal' }]);

  handlers.dblclick({ target: element('strong', {}, paragraph) });
  assert.deepEqual(posted.pop(), { type: 'reveal', line: 27 });
  handlers['window.message']({ data: { type: 'scroll', line: 23 } });
  assert.equal(heading.scrolled, 2, 'line 23 (0-based) is in the heading of line 22 (1-based) until line 28');
});

// MARK: The manifest and the files it names

const root = path.resolve(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

test('every JavaScript file of the extension passes node --check', () => {
  const { execFileSync } = require('node:child_process');
  const files = ['extension.js', 'media/preview.js', 'test/extension.test.js', 'test/fake-vscode.js'];
  for (const file of files) {
    execFileSync(process.execPath, ['--check', path.join(root, file)], { stdio: 'pipe' });
  }
  const all = fs.readdirSync(root).concat(fs.readdirSync(path.join(root, 'media')).map((f) => 'media/' + f),
    fs.readdirSync(path.join(root, 'test')).map((f) => 'test/' + f)).filter((f) => f.endsWith('.js'));
  assert.deepEqual(all.sort(), files.sort(), 'every .js file is checked');
});

test('the manifest has what vsce package needs: repository, license, a 128x128 PNG icon', () => {
  assert.match(manifest.repository.url, /^https:\/\/github\.com\/.+\.git$/);
  assert.equal(manifest.license, 'MIT');
  assert.ok(fs.existsSync(path.join(root, 'LICENSE')));
  assert.ok(fs.existsSync(path.join(root, 'README.md')));
  const png = fs.readFileSync(path.join(root, manifest.icon));
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG');
  assert.equal(png.toString('latin1', 12, 16), 'IHDR');
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
});

test('commands: each in the manifest is registered, with its icon, key binding and menus', async (t) => {
  const context = { subscriptions: [], extensionUri: Uri.file(root) };
  settings.macmd.path = '/nonexistent/macmd-for-the-manifest-test';
  extension.activate(context);
  t.after(async () => {
    for (const subscription of context.subscriptions) subscription.dispose && subscription.dispose();
    await Promise.resolve(extension.deactivate()).catch(() => undefined);
  });
  const commands = manifest.contributes.commands.map((command) => command.command);
  assert.deepEqual(commands, ['macmd.preview', 'macmd.restartServer', 'macmd.unlinkedMentions', 'macmd.search',
    'macmd.turnOffBuiltinMarkdownFeatures']);
  for (const command of commands) {
    assert.equal(typeof vscode.commands.registered[command], 'function', `${command} is registered`);
  }
  const preview = manifest.contributes.commands[0];
  for (const file of [preview.icon.light, preview.icon.dark]) {
    assert.match(fs.readFileSync(path.join(root, file), 'utf8'), /^<svg /, file);
  }
  assert.deepEqual(manifest.contributes.menus['editor/title'].map((item) => item.command), ['macmd.preview']);
  const binding = manifest.contributes.keybindings.find((item) => item.command === 'macmd.preview');
  assert.ok(binding && binding.key && binding.mac && /editorLangId == markdown/.test(binding.when));
});

test('the built-in Markdown features MacMD replaces are off by default, and the command writes them', async () => {
  const defaults = manifest.contributes.configurationDefaults;
  for (const [key, value] of Object.entries(extension.builtinMarkdownFeaturesOff)) {
    assert.deepEqual(defaults[key], value, key);
  }
  const before = calls.length;
  await vscode.commands.executeCommand('macmd.turnOffBuiltinMarkdownFeatures');
  const updates = calls.slice(before).filter((call) => call.name === 'updateSetting');
  assert.deepEqual(updates.map((call) => [call.key, call.value, call.target]),
    Object.entries(extension.builtinMarkdownFeaturesOff).map(([key, value]) => [key, value, vscode.ConfigurationTarget.Global]));
});
