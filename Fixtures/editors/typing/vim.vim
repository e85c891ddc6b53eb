" The typing suite's harness for Vim with ALE, run in a terminal as
"   vim -N -u Fixtures/editors/typing/vim.vim -i NONE --noplugin
" with ALE (Debian's vim-ale, /usr/share/vim-ale) and the plugin (editors/vim) set up as a
" writer's vimrc sets them up. The protocol (environment, ready-N, result-N.txt, F12, done,
" error.txt) is in README.md beside this file.
"
" Invariants: every wait has a deadline (a timer); whatever goes wrong ends in error.txt and
" :qall!, never in a prompt the test would wait on.

set nocompatible
set encoding=utf-8
scriptencoding utf-8

let s:out = $MACMD_TEST_OUT

" Writes a file of the protocol whole: to a temporary name first, then renamed, so the test never
" reads half of it.
function! s:Write(name, lines) abort
    let l:path = s:out . '/' . a:name
    call writefile(a:lines, l:path . '.part', 'b')
    call rename(l:path . '.part', l:path)
endfunction

function! s:Fail(message) abort
    call s:Write('error.txt', split(a:message, "\n", 1))
    qall!
endfunction

for s:name in ['MACMD_TEST_BIN', 'MACMD_TEST_PLUGIN', 'MACMD_TEST_NOTE', 'MACMD_TEST_CASES',
\   'MACMD_TEST_OUT', 'MACMD_TEST_SERVER_LOG']
    if empty(getenv(s:name))
        if !empty(s:out)
            call s:Fail(s:name . ' is not set')
        endif

        cquit
    endif
endfor

" A writer's vimrc: ALE ($MACMD_ALE, else Debian's vim-ale, which lives outside Vim's own
" folders) and the plugin on the runtimepath, Markdown's filetype plugin and indent, the
" completion menu that waits for CTRL-Y, macmd as the Markdown linter. --noplugin skips plugin/
" files, so the two are sourced here.
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
    let g:macmd_executable = $MACMD_TEST_BIN
    let g:macmd_log_file = $MACMD_TEST_SERVER_LOG
    let g:macmd_log_level = 'debug'

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

let s:cases = json_decode(join(readfile($MACMD_TEST_CASES), "\n"))
let s:current = 0

" Puts case s:current in the buffer, the cursor at its `$0`, in Insert mode, and says so.
function! s:SetUp() abort
    let l:case = s:cases[s:current - 1]
    let l:text = l:case.text
    let l:at = stridx(l:text, '$0')
    let l:before = strpart(l:text, 0, l:at)
    let l:text = l:before . strpart(l:text, l:at + 2)
    let l:lines = split(l:text, "\n", 1)
    let l:row = len(split(l:before, "\n", 1))
    let l:col = len(l:before) - (strridx(l:before, "\n") + 1)

    call setline(1, l:lines)
    silent! call deletebufline('%', len(l:lines) + 1, '$')
    let &l:textwidth = get(l:case, 'width', 0)
    call cursor(l:row, l:col + 1)

    if l:col >= len(getline(l:row))
        startinsert!
    else
        startinsert
    endif

    call s:Write('ready-' . s:current, [])
endfunction

" Runs as a key (<Cmd>) in Normal mode: `:startinsert` from a timer would wait for a key.
function! TypingNext() abort
    try
        if s:current > len(s:cases)
            call s:Write('done', [])
            qall!
        endif

        call s:SetUp()
    catch
        call s:Fail('setting up case ' . s:current . ': ' . v:exception . ' at ' . v:throwpoint)
    endtry
endfunction

" F12: the case's buffer is recorded, then the next case (or the end), from Normal mode,
" whatever the keys left (Insert mode, the completion menu, Visual mode).
function! TypingRecord() abort
    if s:current > 0
        call s:Write('result-' . s:current . '.txt', getline(1, '$'))
    endif

    let s:current += 1
    call feedkeys("\<C-\>\<C-N>\<Cmd>call TypingNext()\<CR>", 'n')
endfunction

for s:mode in ['n', 'i', 'x', 's', 'o', 'c']
    execute s:mode . 'noremap <silent> <F12> <Cmd>call TypingRecord()<CR>'
endfor

let s:deadline = reltime()

" Waits (a timer, so the server's answers are read meanwhile) until the server is initialized and
" the typing keys are mapped, at most 30 s.
function! s:WaitReady(timer) abort
    if macmd#IsReady() && maparg('<CR>', 'i') =~# 'macmd'
        call timer_stop(a:timer)
        call TypingRecord()
    elseif reltimefloat(reltime(s:deadline)) > 30
        call timer_stop(a:timer)
        call s:Fail('the macmd server did not start through ALE, or the typing keys were not mapped, within 30 s'
        \   . "\nmessages:\n" . execute('messages'))
    endif
endfunction

function! s:Start() abort
    try
        execute 'edit' fnameescape($MACMD_TEST_NOTE)
        let s:deadline = reltime()
        call timer_start(20, function('s:WaitReady'), {'repeat': -1})
    catch
        call s:Fail('vim: ' . v:exception . ' at ' . v:throwpoint)
    endtry
endfunction

autocmd VimEnter * nested call s:Start()
