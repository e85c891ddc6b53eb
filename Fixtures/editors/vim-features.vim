" Vim with ALE and MacMD's Vim setup (editors/vim) drive the real features on a copy of the
" sample notebook, and write what they saw to a JSON report. Run in a terminal (tmux) as
"   vim -N -u Fixtures/editors/vim-features.vim -i NONE --noplugin
" Tests/EditorTests/VimTests.swift checks the report.
"
" Environment: MACMD_TEST_BIN (the `macmd` to run), MACMD_TEST_PLUGIN (editors/vim),
" MACMD_TEST_NOTEBOOK (the notebook copy, with `.macmd.json`), MACMD_TEST_REPORT (the JSON
" report), MACMD_TEST_SERVER_LOG (the server's log), MACMD_ALE (ALE's folder; Debian's
" /usr/share/vim-ale when unset).
"
" The steps, each with a deadline, in order (a step that times out records why and the next
" one runs): the diagnostics of open-questions.md as ALE shows them (cross-note ones included);
" completion with macmd#Complete after `[[Soil`; :ALEGoToDefinition on the completed link;
" :ALEFindReferences on soil-tests.md's title; :ALEHover on a wiki-link; :ALERename of a heading
" other notes link to (the files on disk after :wall); :MacMDCreateNote on `[[greenhouse]]`;
" :MacMDFormat on a table; :MacMDPreview, and a write that renders it again.
"
" Invariants: every wait is a timer with a deadline, the whole run is bounded (a watchdog writes
" the report and quits), and the editor never stops at a prompt.

set nocompatible
set encoding=utf-8
scriptencoding utf-8

let s:report = {'steps': [], 'errors': {}}
let s:report_path = $MACMD_TEST_REPORT
let s:notebook = substitute($MACMD_TEST_NOTEBOOK, '/\+$', '', '')

function! s:WriteReport() abort
    let s:report.vim = printf('%d.%d', v:version / 100, v:version % 100)
    let s:report.messages = split(execute('messages'), "\n")
    call writefile([json_encode(s:report)], s:report_path . '.part', 'b')
    call rename(s:report_path . '.part', s:report_path)
endfunction

function! s:Finish() abort
    try
        call s:WriteReport()
    finally
        qall!
    endtry
endfunction

function! s:Fail(message) abort
    let s:report.error = a:message
    call s:Finish()
endfunction

if empty(s:report_path)
    cquit
endif

for s:name in ['MACMD_TEST_BIN', 'MACMD_TEST_PLUGIN', 'MACMD_TEST_NOTEBOOK', 'MACMD_TEST_SERVER_LOG']
    if empty(getenv(s:name))
        call s:Fail(s:name . ' is not set')
    endif
endfor

" A writer's vimrc (see editors/vim/README.md), with hover in the preview window so that its
" text can be read back, and the browser replaced by a list of the URLs it would open.
try
    let s:ale = empty($MACMD_ALE) ? '/usr/share/vim-ale' : $MACMD_ALE
    execute 'set runtimepath^=' . fnameescape(s:ale)
    execute 'set runtimepath+=' . fnameescape($MACMD_TEST_PLUGIN)
    set noswapfile hidden
    set completeopt=menuone,noinsert
    set shortmess+=I
    filetype plugin indent on
    syntax on

    let g:ale_linters = {'markdown': ['macmd']}
    let g:ale_hover_to_preview = 1
    let g:macmd_executable = $MACMD_TEST_BIN
    let g:macmd_log_file = $MACMD_TEST_SERVER_LOG
    let g:macmd_log_level = 'debug'
    let s:opened = []
    let g:MacMDOpen = {url -> add(s:opened, url)}

    runtime plugin/ale.vim
    runtime plugin/macmd.vim
catch
    call s:Fail('setting up: ' . v:exception . ' at ' . v:throwpoint)
endtry

if !exists('g:loaded_ale_dont_use_this_in_other_plugins_please')
    call s:Fail('ALE did not load from ' . s:ale . ' (apt-get install -y vim-ale)')
endif

if !exists('g:loaded_macmd')
    call s:Fail('the plugin did not load from ' . $MACMD_TEST_PLUGIN)
endif

" ---------------------------------------------------------------------------------------------
" Steps and waits

let s:steps = []
let s:step = -1
let s:step_name = ''

function! s:Relative(path) abort
    let l:full = fnamemodify(a:path, ':p')

    return stridx(l:full, s:notebook . '/') == 0 ? strpart(l:full, len(s:notebook) + 1) : l:full
endfunction

function! s:Open(relative) abort
    execute 'silent edit' fnameescape(s:notebook . '/' . a:relative)
endfunction

" Runs the next step (from a timer, so that every step starts from Vim's main loop).
function! s:Next(...) abort
    let s:step += 1

    if s:step >= len(s:steps)
        call s:Finish()

        return
    endif

    let s:step_name = s:steps[s:step][0]
    call add(s:report.steps, s:step_name)

    try
        call s:steps[s:step][1]()
    catch
        let s:report.errors[s:step_name] = v:exception . ' at ' . v:throwpoint
        call timer_start(0, function('s:Next'))
    endtry
endfunction

" Polls Condition() every 20 ms; runs Then() once it holds, or records a timeout after `seconds`
" and goes on with the next step. One wait at a time.
function! s:WaitFor(what, Condition, seconds, Then) abort
    let s:wait = {'what': a:what, 'Condition': a:Condition, 'seconds': a:seconds, 'Then': a:Then,
    \   'start': reltime()}
    call timer_start(20, function('s:Poll'), {'repeat': -1})
endfunction

function! s:Poll(timer) abort
    let l:wait = s:wait

    try
        if l:wait.Condition()
            call timer_stop(a:timer)
            call l:wait.Then()

            return
        endif
    catch
        call timer_stop(a:timer)
        let s:report.errors[s:step_name] = v:exception . ' at ' . v:throwpoint
        call timer_start(0, function('s:Next'))

        return
    endtry

    if reltimefloat(reltime(l:wait.start)) > l:wait.seconds
        call timer_stop(a:timer)
        let s:report.errors[s:step_name] = printf('timed out after %d s waiting for %s', l:wait.seconds, l:wait.what)
        call timer_start(0, function('s:Next'))
    endif
endfunction

function! s:Done() abort
    call timer_start(0, function('s:Next'))
endfunction

" The macmd diagnostics ALE keeps for a buffer, as [line, type, code, text].
function! s:Diagnostics(buffer) abort
    let l:rows = []

    for l:item in ale#engine#GetLoclist(a:buffer)
        if get(l:item, 'linter_name', '') is# 'macmd'
            call add(l:rows, [l:item.lnum, l:item.type, get(l:item, 'code', ''), l:item.text])
        endif
    endfor

    return sort(l:rows, {a, b -> a[0] - b[0]})
endfunction

" ---------------------------------------------------------------------------------------------
" 1. Diagnostics: the four problems `macmd check` finds in open-questions.md (two of them
"    need the whole notebook indexed), in ALE's loclist.

function! s:StepDiagnostics() abort
    call s:Open('open-questions.md')
    let s:questions = bufnr('')
    call s:WaitFor('the server and four diagnostics in open-questions.md',
    \   {-> macmd#IsReady(s:questions) && len(s:Diagnostics(s:questions)) >= 4}, 40,
    \   function('s:DiagnosticsSeen'))
endfunction

function! s:DiagnosticsSeen() abort
    let s:report.server = get(macmd#lsp#ServerInfo(s:questions), 'name', '')
    let s:report.omnifunc = getbufvar(s:questions, '&omnifunc')
    let s:report.typingMaps = maparg('<CR>', 'i') =~# 'macmd' ? v:true : v:false
    let s:report.diagnostics = s:Diagnostics(s:questions)
    let s:report.loclist = map(getloclist(0), {_, item -> [item.lnum, item.type, item.text]})
    call s:Done()
endfunction

" ---------------------------------------------------------------------------------------------
" 2. Completion: `Read [[Soil|]]`, CTRL-X CTRL-O, CTRL-Y, as typed.

function! s:StepCompletion() abort
    call s:Open('scratch.md')
    let s:scratch = bufnr('')
    call setline(1, 'Read [[Soil]]')
    call s:WaitFor('the server for scratch.md', {-> macmd#IsReady(s:scratch)}, 20,
    \   function('s:CompletionAsk'))
endfunction

function! s:CompletionAsk() abort
    " The cursor on the first `]`; `i` inserts before it.
    call cursor(1, 12)
    call feedkeys("i\<C-X>\<C-O>", 't')
    call s:WaitFor('the completion menu', {-> pumvisible()}, 10, function('s:CompletionMenu'))
endfunction

function! s:CompletionMenu() abort
    let s:report.candidates = map(copy(complete_info(['items']).items), {_, item -> item.abbr})
    call feedkeys("\<C-Y>\<Esc>", 't')
    call s:WaitFor('Normal mode after CTRL-Y', {-> mode() is# 'n' && !pumvisible()}, 10,
    \   function('s:CompletionAccepted'))
endfunction

function! s:CompletionAccepted() abort
    let s:report.completed = getline(1)
    call s:Done()
endfunction

" ---------------------------------------------------------------------------------------------
" 3. Definition: :ALEGoToDefinition on the completed `[[soil-tests]]`.

function! s:StepDefinition() abort
    execute 'buffer' s:scratch
    call cursor(1, 10)
    ALEGoToDefinition
    call s:WaitFor('soil-tests.md', {-> fnamemodify(bufname(''), ':t') is# 'soil-tests.md'}, 15,
    \   function('s:DefinitionReached'))
endfunction

function! s:DefinitionReached() abort
    let s:report.definition = {'file': s:Relative(bufname('')), 'line': line('.'), 'text': getline('.')}
    call s:Done()
endfunction

" ---------------------------------------------------------------------------------------------
" 4. References: :ALEFindReferences -quickfix on soil-tests.md's title.

function! s:StepReferences() abort
    call s:Open('soil-tests.md')
    call setqflist([], 'r')
    call cursor(search('^# Soil tests', 'w'), 3)
    ALEFindReferences -quickfix
    call s:WaitFor('references in the quickfix list', {-> !empty(getqflist())}, 15,
    \   function('s:ReferencesFound'))
endfunction

function! s:ReferencesFound() abort
    let s:report.references = map(getqflist(), {_, item -> s:Relative(bufname(item.bufnr)) . ':' . item.lnum})
    cclose
    call s:Done()
endfunction

" ---------------------------------------------------------------------------------------------
" 5. Hover: :ALEHover on `[[tomato-varieties]]` in open-questions.md (the preview window).

function! s:StepHover() abort
    call s:Open('open-questions.md')
    call cursor(search('\[\[tomato-varieties\]\]', 'w'), 1)
    call search('tomato', 'c', line('.'))
    silent! pclose
    ALEHover
    call s:WaitFor('the hover in the preview window', {-> bufexists('ALEPreviewWindow')
    \   && !empty(getbufline('ALEPreviewWindow', 1, '$'))}, 15, function('s:HoverShown'))
endfunction

function! s:HoverShown() abort
    let s:report.hover = getbufline('ALEPreviewWindow', 1, '$')
    silent! pclose
    call s:Done()
endfunction

" ---------------------------------------------------------------------------------------------
" 6. Rename: :ALERename on the heading `## Lime calculation` of soil-tests.md, which other notes
"    link to; the new name typed at ALE's prompt; then :wall and the files on disk.

function! s:StepRename() abort
    call s:Open('soil-tests.md')
    let s:soil = bufnr('')
    call cursor(search('^## Lime calculation', 'w'), 5)
    let s:report.renameFrom = getline('.')
    let s:linking = filter(glob(s:notebook . '/**/*.md', 0, 1),
    \   {_, path -> !empty(filter(readfile(path), {_, line -> line =~# 'soil-tests#Lime calculation'}))})
    let s:report.renameLinking = sort(map(copy(s:linking), {_, path -> s:Relative(path)}))
    call feedkeys("\<C-U>Liming\<CR>", 't')
    ALERename
    call s:WaitFor('the renamed heading and links', function('s:Renamed'), 20, function('s:RenameApplied'))
endfunction

function! s:Renamed() abort
    if getbufline(s:soil, 1, '$')->index('## Liming') < 0
        return 0
    endif

    for l:path in s:linking
        let l:buffer = bufnr(l:path)

        if l:buffer < 0 || empty(filter(getbufline(l:buffer, 1, '$'), {_, line -> line =~# 'soil-tests#Liming'}))
            return 0
        endif
    endfor

    return 1
endfunction

function! s:RenameApplied() abort
    silent wall
    let l:changed = []

    for l:path in glob(s:notebook . '/**/*.md', 0, 1)
        if !empty(filter(readfile(l:path), {_, line -> line =~# 'soil-tests#Liming\|^## Liming$'}))
            call add(l:changed, s:Relative(l:path))
        endif
    endfor

    let s:report.renamedOnDisk = sort(l:changed)
    let s:report.renameLeftover = sort(map(filter(glob(s:notebook . '/**/*.md', 0, 1),
    \   {_, path -> !empty(filter(readfile(path), {_, line -> line =~# 'soil-tests#Lime calculation'}))}),
    \   {_, path -> s:Relative(path)}))
    call s:Done()
endfunction

" ---------------------------------------------------------------------------------------------
" 7. :MacMDCreateNote on `[[greenhouse]]` in open-questions.md.

function! s:StepCreateNote() abort
    call s:Open('open-questions.md')
    let s:questions = bufnr('')
    call cursor(search('\[\[greenhouse\]\]', 'w'), 1)
    call search('greenhouse', 'c', line('.'))
    let l:path = s:notebook . '/greenhouse.md'
    let s:report.createExistedBefore = filereadable(l:path) ? v:true : v:false
    MacMDCreateNote
    let s:report.createdBuffer = s:Relative(bufname(''))
    let s:report.createdText = filereadable(l:path) ? readfile(l:path, 'b') : v:null
    " The link is no longer broken once the server has the new note.
    execute 'buffer' s:questions
    call s:WaitFor('the broken-wikilink diagnostic to go', {-> empty(filter(s:Diagnostics(s:questions),
    \   {_, row -> row[2] is# 'broken-wikilink'}))}, 15, function('s:CreateNoteResolved'))
endfunction

function! s:CreateNoteResolved() abort
    let s:report.createResolved = v:true
    call s:Done()
endfunction

" ---------------------------------------------------------------------------------------------
" 8. :MacMDFormat aligns a table (ALE has no LSP formatting).

function! s:StepFormat() abort
    call s:Open('table.md')
    let s:table = bufnr('')
    call setline(1, ['Intro', '', '| a | b |', '|:--|--:|', '| long cell | x |'])
    call s:WaitFor('the server for table.md', {-> macmd#IsReady(s:table)}, 20, function('s:FormatRun'))
endfunction

function! s:FormatRun() abort
    MacMDFormat
    let s:report.formatted = getline(1, '$')
    call s:Done()
endfunction

" ---------------------------------------------------------------------------------------------
" 9. :MacMDPreview writes the page and opens it once; a write renders it again.

function! s:StepPreview() abort
    call s:Open('open-questions.md')
    let s:questions = bufnr('')
    call cursor(search('^# Open questions', 'w') + 2, 1)
    MacMDPreview
    let s:report.pagePath = macmd#PreviewPath()
    call s:WaitFor('the preview page', {-> !empty(s:opened) && filereadable(s:report.pagePath)}, 15,
    \   function('s:PreviewOpened'))
endfunction

function! s:PreviewOpened() abort
    let s:report.opened = copy(s:opened)
    let s:report.pageStart = join(readfile(s:report.pagePath, '', 3), "\n")
    call append(line('$'), ['', 'Written from Vim.'])
    silent write
    call s:WaitFor('the page rendered again', {-> join(readfile(s:report.pagePath), "\n") =~# 'Written from Vim\.'},
    \   15, function('s:PreviewRerendered'))
endfunction

function! s:PreviewRerendered() abort
    let s:report.rerendered = v:true
    let s:report.openedAfterWrite = len(s:opened)
    call s:Done()
endfunction

let s:steps = [
\   ['diagnostics', function('s:StepDiagnostics')],
\   ['completion', function('s:StepCompletion')],
\   ['definition', function('s:StepDefinition')],
\   ['references', function('s:StepReferences')],
\   ['hover', function('s:StepHover')],
\   ['rename', function('s:StepRename')],
\   ['createNote', function('s:StepCreateNote')],
\   ['format', function('s:StepFormat')],
\   ['preview', function('s:StepPreview')],
\]

" The whole run is bounded: after 150 s the report says where it stopped.
call timer_start(150000, {-> s:Fail('the run did not end within 150 s; it was at ' . s:step_name)})

autocmd VimEnter * call timer_start(0, function('s:Next'))
