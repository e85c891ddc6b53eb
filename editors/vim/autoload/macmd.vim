" MacMD for Vim (with ALE): what plugin/macmd.vim's autocmds and commands call.
"
" ALE runs `macmd lsp` as the `macmd` linter (ale_linters/markdown/macmd.vim) and gives
" diagnostics, hover, go to definition, references and rename. This file adds what ALE cannot
" do with MacMD's server: completion that honours the items' textEdit ranges (macmd#Complete),
" the typing help (autoload/macmd/typing.vim), table alignment (:MacMDFormat), the preview
" (:MacMDPreview) and creating the note a broken link names (:MacMDCreateNote).
"
" Invariants:
"   * Every request goes to ALE's `macmd` connection (autoload/macmd/lsp.vim); no second server.
"   * Nothing blocks long: completion waits at most g:macmd_completion_timeout_ms, formatting
"     g:macmd_format_timeout_ms; the preview is asynchronous.

let s:save_cpo = &cpoptions
set cpoptions&vim

" The preview themes `macmd/preview` accepts.
let g:macmd#themes = ['light', 'dark', 'basic', 'grass', 'homebrew', 'man-page', 'novel', 'ocean',
\   'pro', 'red-sands', 'silver-aerogel', 'solid-colors']

" What marks a notebook's root: MacMD's settings, an Obsidian vault, a git repository,
" marksman's and markdown-oxide's settings.
let g:macmd#root_markers = ['.macmd.json', '.obsidian', '.git', '.marksman.toml', '.moxide.toml', 'book.toml', 'mkdocs.yml']

function! s:Message(text, ...) abort
    execute 'echohl' (a:0 ? a:1 : 'WarningMsg')
    echomsg 'macmd: ' . a:text
    echohl None
endfunction

" The notebook root of a buffer: the nearest folder upwards holding a root marker, else the
" note's own folder (ALE starts no language server without a root).
function! macmd#ProjectRoot(buffer) abort
    let l:start = fnamemodify(bufname(a:buffer), ':p:h')
    let l:dir = l:start

    while 1
        for l:marker in g:macmd#root_markers
            let l:candidate = (l:dir is# '/' ? '' : l:dir) . '/' . l:marker

            if filereadable(l:candidate) || isdirectory(l:candidate)
                return l:dir
            endif
        endfor

        let l:parent = fnamemodify(l:dir, ':h')

        if l:parent is# l:dir
            break
        endif

        let l:dir = l:parent
    endwhile

    return l:start
endfunction

" FileType markdown: the omnifunc, the typing keys, and the server (started through ALE, so it is
" ready when the first key is typed).
function! macmd#Attach() abort
    let l:buffer = bufnr('')

    if !empty(&buftype) || empty(bufname(l:buffer))
        return
    endif

    " Markdown's ftplugin sets HTML tag completion; ALE's own omnifunc ignores textEdit ranges.
    if get(g:, 'macmd_omnifunc', 1)
    \&& index(['', 'htmlcomplete#CompleteTags', 'ale#completion#OmniFunc'], &l:omnifunc) >= 0
        setlocal omnifunc=macmd#Complete
        let b:undo_ftplugin = get(b:, 'undo_ftplugin', '')
        \   . (empty(get(b:, 'undo_ftplugin', '')) ? '' : '|') . 'setl omnifunc<'
    endif

    augroup macmd_buffer
        autocmd! * <buffer>
        autocmd CompleteDone <buffer> call macmd#CompleteDone()
    augroup END

    if get(g:, 'macmd_typing', 1)
        call macmd#typing#Attach()
    endif

    if !macmd#lsp#Start(l:buffer) && !s:warned
        " Once per session, after the screen is drawn (a message while Vim starts would wait for
        " ENTER).
        let s:warned = 1
        call timer_start(0, {-> s:Message(s:WhyNoServer(l:buffer))})
    endif
endfunction

let s:warned = get(s:, 'warned', 0)

" Why no server starts for a buffer, and what to do about it.
function! s:WhyNoServer(buffer) abort
    if !exists('g:loaded_ale_dont_use_this_in_other_plugins_please')
        return 'ALE is not loaded, no server: install vim-ale, `packadd! ale` (:h macmd-vim)'
    endif

    if empty(macmd#lsp#Linter(a:buffer))
        return '`macmd` is not in g:ale_linters.markdown: no server'
    endif

    let l:executable = get(g:, 'ale_markdown_macmd_executable', '')
    let l:executable = !empty(l:executable) ? l:executable : get(g:, 'macmd_executable', 'macmd')

    if !executable(l:executable)
        return '`' . fnamemodify(l:executable, ':t') . '` is not executable: put it on PATH or set g:macmd_executable'
    endif

    return 'ALE did not start the server (:ALEInfo says why)'
endfunction

" Whether the server is initialized for the buffer (the typing help and the requests work).
function! macmd#IsReady(...) abort
    return macmd#lsp#IsReady(a:0 ? a:1 : bufnr(''))
endfunction

" ---------------------------------------------------------------------------------------------
" Completion

" Items of the last completion, for the second omnifunc call.
let s:items = []

" The plain text of an LSP snippet: each placeholder's default, choices' first option, tab
" stops and unknown variables nothing.
function! macmd#SnippetText(snippet) abort
    let l:text = a:snippet
    let l:escaped = {'\$': "\x01", '\}': "\x02", '\\': "\x03", '\,': "\x04", '\|': "\x05"}

    for [l:from, l:to] in items(l:escaped)
        let l:text = substitute(l:text, '\V' . escape(l:from, '\'), l:to, 'g')
    endfor

    let l:previous = ''

    " Innermost first: a placeholder whose default holds no other `${`.
    while l:previous isnot# l:text
        let l:previous = l:text
        let l:text = substitute(l:text, '\${\d\+:\([^${}]*\)}', '\1', 'g')
        let l:text = substitute(l:text, '\${\d\+|\([^,|}]*\)[^}]*|}', '\1', 'g')
        let l:text = substitute(l:text, '\${\d\+}', '', 'g')
        let l:text = substitute(l:text, '\${[A-Za-z_][A-Za-z0-9_]*:\([^${}]*\)}', '\1', 'g')
        let l:text = substitute(l:text, '\${[A-Za-z_][A-Za-z0-9_]*\%(/[^}]*\)\=}', '', 'g')
    endwhile

    let l:text = substitute(l:text, '\$\d\+', '', 'g')
    let l:text = substitute(l:text, '\$[A-Za-z_][A-Za-z0-9_]*', '', 'g')

    for [l:from, l:to] in items(l:escaped)
        let l:text = substitute(l:text, l:to, escape(l:from[1], '\&'), 'g')
    endfor

    return l:text
endfunction

let s:kinds = {1: 'Text', 9: 'Module', 14: 'Keyword', 15: 'Snippet', 17: 'File', 18: 'Reference',
\   19: 'Folder', 21: 'Constant', 10: 'Property', 12: 'Value'}

" An 'omnifunc' that inserts exactly what the server says: it starts where the items' textEdit
" starts (just after `[[`, `(`, `#`), so `[[note-with-dashes` and `[text](folder/` complete
" whole, and removes the part of the edit after the cursor once an item is accepted
" (macmd#CompleteDone). Snippets (several lines) are inserted as their prefix and replaced by
" their text when accepted. Items come from one synchronous request.
function! macmd#Complete(findstart, base) abort
    if !a:findstart
        return s:items
    endif

    let s:items = []
    let l:buffer = bufnr('')
    let l:lnum = line('.')
    let l:cursor = col('.') - 1
    let l:line = getline('.')
    let l:result = macmd#lsp#ResultSync(l:buffer, 'textDocument/completion', macmd#lsp#CursorParams(),
    \   get(g:, 'macmd_completion_timeout_ms', 2000))
    let l:list = type(l:result) is v:t_dict ? get(l:result, 'items', [])
    \   : type(l:result) is v:t_list ? l:result : []
    let l:start = -1
    let l:found = []

    for l:item in l:list
        let l:edit = get(l:item, 'textEdit', {})
        " An InsertReplaceEdit has `insert` and `replace` instead of `range`.
        let l:range = type(l:edit) is v:t_dict ? get(l:edit, 'range', get(l:edit, 'insert', {})) : {}

        if empty(l:range) || l:range.start.line != l:lnum - 1
            continue
        endif

        let l:column = macmd#lsp#ByteIndex(l:line, l:range.start.character)

        if l:column > l:cursor
            continue
        endif

        let l:start = l:start < 0 ? l:column : min([l:start, l:column])
        " Bytes of the edit's range after the cursor, removed once the item is accepted.
        let l:after = 0

        if l:range.end.line == l:lnum - 1
            let l:after = max([0, macmd#lsp#ByteIndex(l:line, l:range.end.character) - l:cursor])
        endif

        let l:text = get(l:edit, 'newText', '')

        if get(l:item, 'insertTextFormat', 1) == 2
            let l:text = macmd#SnippetText(l:text)
        endif

        let l:snippet = get(l:item, 'kind', 0) == 15 || get(l:item, 'insertTextFormat', 1) == 2
        \   || stridx(l:text, "\n") >= 0
        let l:doc = get(l:item, 'documentation', '')
        let l:doc = type(l:doc) is v:t_dict ? get(l:doc, 'value', '') : type(l:doc) is v:t_string ? l:doc : ''
        let l:data = {'after': l:after, 'start': l:column}

        if l:snippet
            let l:data.snippet = l:text
        endif

        call add(l:found, [l:column, {
        \   'word': l:snippet ? get(l:item, 'filterText', l:item.label) : l:text,
        \   'abbr': l:item.label,
        \   'menu': get(l:item, 'detail', ''),
        \   'info': !empty(l:doc) ? l:doc : l:snippet ? l:text : '',
        \   'kind': get(s:kinds, get(l:item, 'kind', 0), ''),
        \   'icase': 1,
        \   'dup': 1,
        \   'empty': 1,
        \   'user_data': {'macmd': l:data},
        \}])
    endfor

    if l:start < 0
        return -3
    endif

    for [l:column, l:word] in l:found
        " An edit that starts after the common start keeps the text in between.
        if l:column > l:start
            let l:word.word = strpart(l:line, l:start, l:column - l:start) . l:word.word
        endif

        call add(s:items, l:word)
    endfor

    return l:start
endfunction

" CompleteDone: Vim replaced the text from the start column to the cursor; the server's edit may
" also cover text after the cursor (the rest of the word in `[[no|te]]`), deleted here, and a
" snippet's prefix becomes its text.
function! macmd#CompleteDone() abort
    let l:item = v:completed_item
    let l:data = type(l:item) is v:t_dict ? get(l:item, 'user_data', '') : ''
    let l:data = type(l:data) is v:t_dict ? get(l:data, 'macmd', '') : ''

    if type(l:data) isnot v:t_dict
        return
    endif

    let l:lnum = line('.')
    let l:cursor = col('.') - 1
    let l:line = getline('.')
    let l:stop = min([len(l:line), l:cursor + max([get(l:data, 'after', 0), 0])])

    if has_key(l:data, 'snippet')
        let l:start = min([get(l:data, 'start', l:cursor), l:cursor])
        let l:lines = split(l:data.snippet, "\n", 1)
        let l:new = copy(l:lines)
        let l:new[0] = strpart(l:line, 0, l:start) . l:new[0]
        let l:new[-1] .= strpart(l:line, l:stop)
        call setline(l:lnum, l:new[0])
        call append(l:lnum, l:new[1:])
        let l:column = (len(l:lines) == 1 ? l:start : 0) + len(l:lines[-1])
        call cursor(l:lnum + len(l:lines) - 1, l:column + 1)

        return
    endif

    if l:stop > l:cursor
        call setline(l:lnum, strpart(l:line, 0, l:cursor) . strpart(l:line, l:stop))
    endif
endfunction

" ---------------------------------------------------------------------------------------------
" Formatting: tables aligned by display width (ALE has no LSP formatting)

" :MacMDFormat aligns the tables of the note; with a range, those the lines touch.
function! macmd#Format(first, last, has_range) abort
    let l:buffer = bufnr('')
    let l:options = {'tabSize': shiftwidth(), 'insertSpaces': &expandtab ? v:true : v:false}
    let l:params = {'textDocument': {'uri': macmd#lsp#URI(l:buffer)}, 'options': l:options}
    let l:method = 'textDocument/formatting'

    if a:has_range
        let l:method = 'textDocument/rangeFormatting'
        let l:params.range = {
        \   'start': {'line': a:first - 1, 'character': 0},
        \   'end': {'line': a:last - 1, 'character': macmd#lsp#UTF16Length(getline(a:last))},
        \}
    endif

    let l:response = macmd#lsp#RequestSync(l:buffer, l:method, l:params,
    \   get(g:, 'macmd_format_timeout_ms', 2000))

    if empty(l:response)
        call s:Message('no answer from the macmd server (is ALE running the `macmd` linter here?)')

        return
    endif

    if has_key(l:response, 'error')
        call s:Message('formatting failed: ' . get(l:response.error, 'message', ''), 'ErrorMsg')

        return
    endif

    let l:edits = get(l:response, 'result', v:null)

    if type(l:edits) is v:t_list && !empty(l:edits)
        call macmd#typing#ApplyEdits(l:edits)
    endif
endfunction

" ---------------------------------------------------------------------------------------------
" Creating the note a broken link names

" The links of a line around byte column `col` (0-based): [start, end (exclusive), target, wiki].
function! s:LinkAt(line, col) abort
    let l:patterns = [
    \   ['\[\[\([^]|#^]*\)\%([#^][^]|]*\)\=\%(|[^]]*\)\=\]\]', 1],
    \   ['\[[^]]*\](\s*<\=\([^)> ]*\)>\=\%(\s\+"[^"]*"\)\=\s*)', 0],
    \]

    for [l:pattern, l:wiki] in l:patterns
        let l:from = 0

        while 1
            let l:match = matchstrpos(a:line, l:pattern, l:from)

            if l:match[1] < 0
                break
            endif

            if l:match[1] <= a:col && a:col < l:match[2]
                let l:target = matchlist(l:match[0], l:pattern)[1]

                return [l:match[1], l:match[2], l:target, l:wiki]
            endif

            let l:from = l:match[2]
        endwhile
    endfor

    return []
endfunction

" The broken-link diagnostic (ALE's loclist item from macmd) on the link [start, end) of line
" `lnum`, or {}.
function! s:BrokenLinkDiagnostic(buffer, lnum, start, end) abort
    let l:line = getbufline(a:buffer, a:lnum)[0]
    " ALE keeps the server's UTF-16 columns (1-based) as they are.
    let l:first = macmd#lsp#Character(l:line, a:start)
    let l:last = macmd#lsp#Character(l:line, a:end)

    try
        let l:loclist = ale#engine#GetLoclist(a:buffer)
    catch
        let l:loclist = []
    endtry

    for l:item in l:loclist
        if get(l:item, 'linter_name', '') is# 'macmd'
        \&& index(['broken-wikilink', 'broken-link'], get(l:item, 'code', '')) >= 0
        \&& get(l:item, 'lnum', 0) == a:lnum
        \&& l:item.col - 1 >= l:first && l:item.col - 1 < l:last
            return l:item
        endif
    endfor

    return {}
endfunction

" The path of the note a link names, as the server's "Create note" action makes it: a wiki-link
" `[[greenhouse]]` is `greenhouse.md` beside the linking note (`[[a/b]]` is `a/b.md` from the
" notebook's root); a Markdown link's path is relative to the note, `.md` added when it has no
" extension.
function! macmd#NotePath(buffer, target, wiki) abort
    let l:note_folder = fnamemodify(bufname(a:buffer), ':p:h')
    let l:target = a:target

    if !a:wiki
        " Percent-decoding of a Markdown link's destination.
        let l:target = substitute(l:target, '%\(\x\x\)', '\=nr2char(str2nr(submatch(1), 16))', 'g')
    endif

    if a:wiki && stridx(l:target, '/') >= 0
        let l:path = macmd#ProjectRoot(a:buffer) . '/' . substitute(l:target, '^/\+', '', '')
    elseif !a:wiki && l:target =~# '^/'
        let l:path = macmd#ProjectRoot(a:buffer) . l:target
    else
        let l:path = l:note_folder . '/' . l:target
    endif

    if empty(fnamemodify(l:path, ':e'))
        let l:path .= '.md'
    endif

    return simplify(l:path)
endfunction

" :MacMDCreateNote: on a link the server reports broken (`broken-wikilink`, `broken-link`),
" creates the note it names with a `# Title` line and opens it. ALE cannot apply the server's
" own "Create note" action (it takes workspace edits with documentChanges, which ALE's client
" does not announce), so the plugin writes the file the action would create.
function! macmd#CreateNote(...) abort
    let l:buffer = bufnr('')
    let l:lnum = line('.')
    let l:link = s:LinkAt(getline('.'), col('.') - 1)

    if empty(l:link) || empty(l:link[2]) || l:link[2] =~# '^\a[[:alnum:]+.-]*:'
        call s:Message('no link to a note under the cursor')

        return ''
    endif

    if empty(s:BrokenLinkDiagnostic(l:buffer, l:lnum, l:link[0], l:link[1])) && !get(a:000, 0, 0)
        call s:Message('the server reports no broken link here (`' . l:link[2] . '` may exist;'
        \   . ' :MacMDCreateNote! creates it anyway)')

        return ''
    endif

    let l:path = macmd#NotePath(l:buffer, l:link[2], l:link[3])

    if filereadable(l:path) || isdirectory(l:path)
        call s:Message(fnamemodify(l:path, ':~:.') . ' exists already')

        return ''
    endif

    call mkdir(fnamemodify(l:path, ':h'), 'p')
    call writefile(['# ' . fnamemodify(l:path, ':t:r'), ''], l:path)
    let l:command = get(g:, 'macmd_create_note_command', 'edit')

    if !empty(l:command)
        execute l:command fnameescape(l:path)
    endif

    return l:path
endfunction

" ---------------------------------------------------------------------------------------------
" Preview

function! macmd#ThemeNames(lead, ...) abort
    return filter(copy(g:macmd#themes), {_, theme -> stridx(theme, a:lead) == 0})
endfunction

" The folder of the preview pages: g:macmd_preview_folder, else $XDG_CACHE_HOME/macmd/preview
" (~/.cache/macmd/preview), kept across sessions.
function! macmd#PreviewFolder() abort
    if !empty(get(g:, 'macmd_preview_folder', ''))
        return g:macmd_preview_folder
    endif

    let l:cache = empty($XDG_CACHE_HOME) ? expand('~/.cache') : $XDG_CACHE_HOME

    return l:cache . '/macmd/preview'
endfunction

" The page of a buffer's note: its name and a hash of its path, so each note keeps one page.
function! macmd#PagePath(buffer) abort
    let l:full = fnamemodify(bufname(a:buffer), ':p')
    let l:stem = substitute(fnamemodify(l:full, ':t:r'), '[^A-Za-z0-9._-]', '_', 'g')

    return macmd#PreviewFolder() . '/' . l:stem . '-' . sha256(l:full)[: 11] . '.html'
endfunction

" `text` percent-encoded byte by byte but for ASCII letters, digits, `-._~` and `keep`.
function! s:URLEncoded(text, keep) abort
    let l:kept = '^[A-Za-z0-9._~' . a:keep . '-]$'

    return join(map(split(a:text, '\zs'), {_, ch -> ch =~# l:kept ? ch
    \   : join(map(range(len(ch)), {i, _ -> printf('%%%02X', char2nr(ch[i]))}), '')}), '')
endfunction

" The `file:` URL of a page, at the heading the 0-based line is under (the result's
" `headings`), if any.
function! s:PageURL(path, headings, line) abort
    let l:url = 'file://' . s:URLEncoded(a:path, '/')
    let l:id = ''

    for l:heading in type(a:headings) is v:t_list ? a:headings : []
        if type(l:heading) is v:t_dict && get(l:heading, 'line', a:line + 1) <= a:line
            let l:id = get(l:heading, 'id', '')
        endif
    endfor

    return empty(l:id) ? l:url : l:url . '#' . s:URLEncoded(l:id, '')
endfunction

" Opens a URL in the browser: g:MacMDOpen (a Funcref called with it), else g:macmd_open (a
" command string, or a list the URL is appended to), else `open` on macOS and `xdg-open`
" elsewhere.
function! macmd#Open(url) abort
    if exists('g:MacMDOpen') && type(g:MacMDOpen) is v:t_func
        return g:MacMDOpen(a:url)
    endif

    let l:open = get(g:, 'macmd_open', '')

    if type(l:open) is v:t_list && !empty(l:open)
        let l:command = l:open + [a:url]
    elseif type(l:open) is v:t_string && !empty(l:open)
        let l:command = [l:open, a:url]
    else
        let l:command = [has('mac') || has('macunix') ? 'open' : 'xdg-open', a:url]
    endif

    if !executable(l:command[0])
        call s:Message('cannot open the preview: `' . l:command[0] . '` is missing; the page is ' . a:url)

        return
    endif

    call job_start(l:command, {'in_io': 'null', 'out_io': 'null', 'err_io': 'null', 'stoponexit': ''})
endfunction

" A meta refresh, so the browser shows what the last save rendered.
function! s:WithRefresh(html) abort
    let l:seconds = get(g:, 'macmd_preview_refresh', 2)

    if l:seconds <= 0
        return a:html
    endif

    let l:meta = printf('<meta http-equiv="refresh" content="%d">', l:seconds)
    let l:head = stridx(a:html, '<head>')

    return l:head < 0 ? l:meta . a:html : strpart(a:html, 0, l:head + 6) . l:meta . strpart(a:html, l:head + 6)
endfunction

function! s:OnPreview(buffer, response) abort
    let l:state = getbufvar(a:buffer, 'macmd_preview', {})

    if empty(l:state)
        return
    endif

    if has_key(a:response, 'error') || type(get(a:response, 'result', v:null)) isnot v:t_dict
        let l:error = get(a:response, 'error', {})
        call s:Message('preview failed: ' . (type(l:error) is v:t_dict ? get(l:error, 'message', '') : ''), 'ErrorMsg')

        return
    endif

    let l:result = a:response.result

    try
        call mkdir(fnamemodify(l:state.path, ':h'), 'p')
        call writefile(split(s:WithRefresh(get(l:result, 'html', '')), "\n", 1), l:state.path, 'b')
    catch
        call s:Message('cannot write ' . l:state.path . ': ' . v:exception, 'ErrorMsg')

        return
    endtry

    let l:state.rendered = get(l:state, 'rendered', 0) + 1

    if !l:state.opened
        let l:state.opened = 1
        call macmd#Open(s:PageURL(l:state.path, get(l:result, 'headings', []), l:state.line))
    endif
endfunction

" Renders a buffer's preview page to its file (asynchronously); opens the browser the first time.
function! macmd#RenderPreview(buffer) abort
    let l:state = getbufvar(a:buffer, 'macmd_preview', {})

    if empty(l:state)
        return
    endif

    " Absolute `file:` URLs, so images and links work from the cache folder.
    let l:options = {'fullPage': v:true, 'resources': 'absolute'}
    let l:theme = !empty(get(l:state, 'theme', '')) ? l:state.theme : get(g:, 'macmd_preview_theme', '')

    if !empty(l:theme)
        let l:options.theme = l:theme
    endif

    let l:params = {'textDocument': {'uri': macmd#lsp#URI(a:buffer)}, 'options': l:options}

    if !macmd#lsp#Request(a:buffer, 'macmd/preview', l:params, function('s:OnPreview', [a:buffer]))
        call s:Message('no macmd server for this buffer: is ALE on, and `macmd` in g:ale_linters.markdown?', 'ErrorMsg')
    endif
endfunction

" :MacMDPreview [theme]: renders the note, opens it in the browser, and renders it again on each
" write.
function! macmd#Preview(theme) abort
    let l:buffer = bufnr('')

    if !empty(a:theme) && index(g:macmd#themes, a:theme) < 0
        call s:Message('unknown theme `' . a:theme . '`; one of ' . join(g:macmd#themes, ', '), 'ErrorMsg')

        return
    endif

    if empty(bufname(l:buffer))
        call s:Message('the buffer has no file to preview', 'ErrorMsg')

        return
    endif

    if empty(get(b:, 'macmd_preview', {}))
        let b:macmd_preview = {'path': macmd#PagePath(l:buffer), 'opened': 0, 'theme': ''}

        augroup macmd_preview
            autocmd! * <buffer>
            autocmd BufWritePost <buffer> call macmd#RenderPreview(str2nr(expand('<abuf>')))
        augroup END
    else
        " Another :MacMDPreview (maybe with another theme) opens the browser again.
        let b:macmd_preview.opened = 0
    endif

    if !empty(a:theme)
        let b:macmd_preview.theme = a:theme
    endif

    let b:macmd_preview.line = line('.') - 1
    call macmd#RenderPreview(l:buffer)
endfunction

" The page of a buffer's preview, or '' before :MacMDPreview.
function! macmd#PreviewPath(...) abort
    return get(getbufvar(a:0 ? a:1 : bufnr(''), 'macmd_preview', {}), 'path', '')
endfunction

let &cpoptions = s:save_cpo
unlet s:save_cpo
