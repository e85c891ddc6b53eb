" MacMD for Vim: typing help in Insert mode, asked of the server key by key.
"
" Enter continues lists, quotes and tables (textDocument/onTypeFormatting on "\n"); a fence's
" third backtick, a second `[` and a `|` ending a table row get the server's edits too (its
" moreTriggerCharacter); pairs close where the server says they do (macmd/pairs), a closing
" character steps over the one already there, <BS> between an empty pair deletes both, and a
" pair whose `withdrawOn` lists the next character typed takes its close back (`$5`, `$ `).
"
" Invariants:
"   * The typed character is never lost: a mapped key is fed back to Vim unmapped
"     (feedkeys(…, 'ni')), with the close of its pair or followed by the server's edits; when the
"     server is missing, slow (g:macmd_timeout_ms) or says nothing, the key is typed as usual.
"   * The server's edits are applied to the touched lines only (setline/append/deletebufline),
"     and the cursor moves as VS Code moves it, which the edits are made for.
"   * Nothing here runs outside the buffers the FileType autocmd attached
"     (b:macmd_typing_attached); b:macmd_typing = 0 turns it off in a buffer.

let s:save_cpo = &cpoptions
set cpoptions&vim

" What a typed character closes, by the character typed last in an open (for <BS>).
let s:closing = {'(': ')', '[': ']', '{': '}', '`': '`', '*': '*', '_': '_', '$': '$', '~': '~',
\   '"': '"', "'": "'"}
" The characters that may step over the same character after the cursor.
let s:closers = {')': 1, ']': 1, '}': 1, '`': 1, '*': 1, '_': 1, '$': 1, '~': 1, '"': 1, "'": 1}
" The characters whose pair a second one extends (`**`, `__`, `$$`, `~~`).
let s:extenders = {'*': 1, '_': 1, '$': 1, '~': 1}
" MacMD's documented triggers, used when the server's capabilities were not seen.
let s:default_triggers = ['`', '[', '|']

" The pair inserted last whose close a next character may take back:
" {buffer, lnum, col, tick, close, withdraw}, or {}.
let s:armed = {}
" What the next macmd#typing#Arm() records (set just before the keys are fed).
let s:arming = {}

function! s:Timeout() abort
    return get(b:, 'macmd_timeout_ms', get(g:, 'macmd_timeout_ms', 300))
endfunction

" Whether typing help runs in the current buffer now.
function! s:Enabled() abort
    return get(b:, 'macmd_typing_attached', 0) && get(b:, 'macmd_typing', 1) && get(g:, 'macmd_typing', 1)
    \   && mode() is# 'i' && macmd#lsp#IsReady(bufnr(''))
endfunction

" The server's onTypeFormatting triggers beside "\n".
function! macmd#typing#Triggers(buffer) abort
    let l:capabilities = macmd#lsp#Capabilities(a:buffer)

    if empty(l:capabilities)
        return s:default_triggers
    endif

    let l:provider = get(l:capabilities, 'documentOnTypeFormattingProvider', v:null)

    return type(l:provider) is v:t_dict ? get(l:provider, 'moreTriggerCharacter', []) : []
endfunction

function! s:HasOnType(buffer) abort
    let l:capabilities = macmd#lsp#Capabilities(a:buffer)

    return empty(l:capabilities)
    \   || type(get(l:capabilities, 'documentOnTypeFormattingProvider', v:null)) is v:t_dict
endfunction

function! s:HasPairs(buffer) abort
    let l:capabilities = macmd#lsp#Capabilities(a:buffer)

    if empty(l:capabilities)
        return 1
    endif

    let l:experimental = get(l:capabilities, 'experimental', {})
    let l:macmd = type(l:experimental) is v:t_dict ? get(l:experimental, 'macmd', {}) : {}

    return type(l:macmd) is v:t_dict && get(l:macmd, 'pairs', v:false) is v:true
endfunction

" Keys that move the cursor `count` characters without breaking the undo step.
function! s:Moves(direction, count) abort
    return repeat("\<C-G>U" . (a:direction is# 'left' ? "\<Left>" : "\<Right>"), a:count)
endfunction

" Whether `before` ends with a run of `ch` that opens: at the line start or after white space
" or punctuation, not after a letter or digit (where it closes).
function! s:OpensRun(before, ch) abort
    let l:run = match(a:before, '\V' . escape(a:ch, '\') . '\+\$')

    if l:run < 0
        return 0
    endif

    return l:run == 0 || a:before[l:run - 1] =~# '[[:space:][:punct:]]'
endfunction

" The pair the server's answer closes for `ch` typed between `before` and `after`:
" [keys to feed, the pair, the close inserted], or [] when none opens here.
function! macmd#typing#PairKeys(ch, before, after, pairs) abort
    let l:text = a:before . a:ch

    for l:pair in type(a:pairs) is v:t_list ? a:pairs : []
        let l:open = get(l:pair, 'open', '')
        let l:close = get(l:pair, 'close', '')

        if type(l:open) isnot v:t_string || type(l:close) isnot v:t_string || empty(l:open)
        \|| len(l:open) > len(l:text) || strpart(l:text, len(l:text) - len(l:open)) isnot# l:open
            continue
        endif

        " The close of the shorter pair the first character already wrote (`]` of `[|]`).
        let l:present = 0

        if len(l:open) > 1
            for l:n in range(len(l:close) - 1, 1, -1)
                if strpart(a:after, 0, l:n) is# strpart(l:close, len(l:close) - l:n)
                    let l:present = l:n
                    break
                endif
            endfor
        endif

        let l:missing = strpart(l:close, 0, len(l:close) - l:present)

        return [a:ch . l:missing . s:Moves('left', strchars(l:missing)), l:pair, l:missing]
    endfor

    return []
endfunction

" The keys that send onTypeFormatting once `ch` is typed, when it is a trigger.
function! s:AfterTyping(ch) abort
    if !get(g:, 'macmd_format_on_type', 1) || !s:HasOnType(bufnr(''))
    \|| index(macmd#typing#Triggers(bufnr('')), a:ch) < 0
        return ''
    endif

    return "\<Cmd>call macmd#typing#OnType(" . char2nr(a:ch) . ")\<CR>"
endfunction

" A pair's opening or closing character, or a trigger, typed in Insert mode.
function! macmd#typing#Type(code) abort
    let l:ch = nr2char(a:code)
    let s:armed = {}

    if !s:Enabled()
        call feedkeys(l:ch, 'ni')

        return
    endif

    let l:keys = l:ch

    if get(g:, 'macmd_autopairs', 1) && s:HasPairs(bufnr(''))
        let l:col = col('.')
        let l:line = getline('.')
        let l:before = strpart(l:line, 0, l:col - 1)
        let l:after = strpart(l:line, l:col - 1)

        " Step over the close that is already there, except inside an empty pair of `*`, `_`,
        " `$` or `~` that opens (`A *|*` + `*` → `A **|**`, but `**b*|*` + `*` → `**b**|`).
        if has_key(s:closers, l:ch) && l:after[0] is# l:ch
        \&& !(has_key(s:extenders, l:ch) && s:OpensRun(l:before, l:ch))
            call feedkeys(s:Moves('right', 1), 'ni')

            return
        endif

        if has_key(s:closing, l:ch)
            let l:answer = macmd#lsp#ResultSync(bufnr(''), 'macmd/pairs', macmd#lsp#CursorParams(), s:Timeout())
            let l:paired = type(l:answer) is v:t_dict
            \   ? macmd#typing#PairKeys(l:ch, l:before, l:after, get(l:answer, 'pairs', []))
            \   : []

            if !empty(l:paired)
                let l:keys = l:paired[0]
                let l:withdraw = get(l:paired[1], 'withdrawOn', '')

                if type(l:withdraw) is v:t_string && !empty(l:withdraw) && !empty(l:paired[2])
                    let s:arming = {'close': l:paired[2], 'withdraw': l:withdraw}
                    call feedkeys(l:keys . s:AfterTyping(l:ch) . "\<Cmd>call macmd#typing#Arm()\<CR>", 'ni')

                    return
                endif
            endif
        endif
    endif

    call feedkeys(l:keys . s:AfterTyping(l:ch), 'ni')
endfunction

" Records the pair just inserted (the cursor between its open and close), so that a next
" character in its `withdrawOn` takes the close back.
function! macmd#typing#Arm() abort
    if empty(s:arming)
        return
    endif

    let s:armed = extend(s:arming, {
    \   'buffer': bufnr(''),
    \   'lnum': line('.'),
    \   'col': col('.'),
    \   'tick': b:changedtick,
    \})
    let s:arming = {}
endfunction

" InsertCharPre: a character typed right after an armed pair's open that the pair withdraws on
" deletes the close (`$` `5` → `$5`, not `$5$`). The buffer is locked here, so the close goes
" by a <Del> fed ahead of the next key.
function! macmd#typing#CharPre() abort
    if empty(s:armed)
        return
    endif

    let l:armed = s:armed
    let s:armed = {}

    if bufnr('') != l:armed.buffer || b:changedtick != l:armed.tick
    \|| line('.') != l:armed.lnum || col('.') != l:armed.col
    \|| stridx(l:armed.withdraw, v:char) < 0
    \|| strpart(getline('.'), col('.') - 1, len(l:armed.close)) isnot# l:armed.close
        return
    endif

    call feedkeys(repeat("\<Del>", strchars(l:armed.close)), 'ni')
endfunction

" InsertLeave and other keys: no pair is waiting for its next character any more.
function! macmd#typing#Disarm() abort
    let s:armed = {}
    let s:arming = {}
endfunction

" The keys of Enter in Insert mode: a line break, then the server's continuation.
function! macmd#typing#EnterKeys() abort
    let s:armed = {}

    if pumvisible() || !s:Enabled() || !get(g:, 'macmd_list_continuation', 1) || !s:HasOnType(bufnr(''))
        return "\<CR>"
    endif

    return "\<CR>\<Cmd>call macmd#typing#OnType(10)\<CR>"
endfunction

" The keys of <BS> in Insert mode: between an empty pair (`(|)`, `[[|]]` a level at a time),
" both characters go.
function! macmd#typing#BackspaceKeys() abort
    let s:armed = {}

    if !s:Enabled() || !get(g:, 'macmd_autopairs', 1) || pumvisible()
        return "\<BS>"
    endif

    let l:col = col('.')
    let l:line = getline('.')
    let l:previous = l:col > 1 ? l:line[l:col - 2] : ''
    let l:next = l:line[l:col - 1]

    if !empty(l:previous) && get(s:closing, l:previous, '') is# l:next && !empty(l:next)
        return "\<BS>\<Del>"
    endif

    return "\<BS>"
endfunction

" Sends textDocument/onTypeFormatting for the character (code) just typed and applies the edits.
function! macmd#typing#OnType(code) abort
    let l:buffer = bufnr('')

    if !macmd#lsp#IsReady(l:buffer)
        return
    endif

    let l:params = macmd#lsp#CursorParams()
    let l:params.ch = nr2char(a:code)
    let l:params.options = {
    \   'tabSize': shiftwidth(),
    \   'insertSpaces': &expandtab ? v:true : v:false,
    \}
    let l:tick = b:changedtick
    " Enter in the middle of a line carries the rest, with the white space before it, which
    " 'autoindent' would have removed (Neovim has it on by default).
    let l:carried = a:code == 10 ? matchstr(strpart(getline('.'), col('.') - 1), '^\s\+\ze\S') : ''
    let l:edits = macmd#lsp#ResultSync(l:buffer, 'textDocument/onTypeFormatting', l:params, s:Timeout())

    " Applied only to the text they were made for.
    if type(l:edits) isnot v:t_list || empty(l:edits) || b:changedtick != l:tick || bufnr('') != l:buffer
        return
    endif

    call macmd#typing#ApplyEdits(l:edits)

    " The server continued a list or a quote: the rest goes into the new item without that white
    " space, as with 'autoindent'.
    if !empty(l:carried) && strpart(getline('.'), col('.') - 1, len(l:carried)) is# l:carried
    \&& strpart(getline('.'), 0, col('.') - 1) =~# '\S'
        let l:line = getline('.')
        call setline('.', strpart(l:line, 0, col('.') - 1) . strpart(l:line, col('.') - 1 + len(l:carried)))
    endif
endfunction

" Edits from last to first; of edits that start at the same place, the longer (then the later)
" goes first.
function! s:Later(x, y) abort
    let l:a = a:x[0].range
    let l:b = a:y[0].range

    for [l:p, l:q] in [
    \   [l:a.start.line, l:b.start.line], [l:a.start.character, l:b.start.character],
    \   [l:a.end.line, l:b.end.line], [l:a.end.character, l:b.end.character],
    \   [a:x[1], a:y[1]],
    \]
        if l:p != l:q
            return l:p > l:q ? -1 : 1
        endif
    endfor

    return 0
endfunction

" Replaces the text from (row, col) to (end_row, end_col) (0-based, bytes) of the current
" buffer by `lines`, touching only the lines that change.
function! s:SetText(row, col, end_row, end_col, lines) abort
    let l:new = copy(a:lines)
    let l:new[0] = strpart(getline(a:row + 1), 0, a:col) . l:new[0]
    let l:new[-1] .= strpart(getline(a:end_row + 1), a:end_col)
    let l:old_count = a:end_row - a:row + 1
    let l:common = min([l:old_count, len(l:new)])

    for l:index in range(l:common)
        if getline(a:row + 1 + l:index) isnot# l:new[l:index]
            call setline(a:row + 1 + l:index, l:new[l:index])
        endif
    endfor

    if len(l:new) > l:old_count
        call append(a:row + l:common, l:new[l:common :])
    elseif len(l:new) < l:old_count
        silent call deletebufline(bufnr(''), a:row + 1 + l:common, a:end_row + 1)
    endif
endfunction

" Applies a keystroke's text edits (UTF-16 positions) to the current buffer and moves the cursor
" as VS Code does, which the server's edits are made for: an edit that ends at or before the
" cursor shifts it by what the edit added (an insertion at the cursor leaves it after the
" text), any other edit leaves it in place. An edit reaching past the last line replaces the
" final line break, which Vim keeps as 'eol'.
function! macmd#typing#ApplyEdits(edits) abort
    let l:order = []

    for l:index in range(len(a:edits))
        call add(l:order, [a:edits[l:index], l:index])
    endfor

    call sort(l:order, function('s:Later'))
    let l:row = line('.') - 1
    let l:col = col('.') - 1

    for [l:edit, l:_] in l:order
        let l:range = l:edit.range
        let l:text = substitute(get(l:edit, 'newText', ''), '\r\n', '\n', 'g')
        let l:count = line('$')
        let l:start_row = l:range.start.line
        let l:end_row = l:range.end.line
        let l:start_col = l:start_row < l:count
        \   ? macmd#lsp#ByteIndex(getline(l:start_row + 1), l:range.start.character) : 0
        let l:end_col = l:end_row < l:count
        \   ? macmd#lsp#ByteIndex(getline(l:end_row + 1), l:range.end.character) : 0
        let l:moves = l:end_row < l:row || (l:end_row == l:row && l:end_col <= l:col)

        if l:start_row >= l:count
            let [l:start_row, l:start_col] = [l:count - 1, len(getline(l:count))]
            let l:text = "\n" . l:text
        endif

        if l:end_row >= l:count
            let [l:end_row, l:end_col] = [l:count - 1, len(getline(l:count))]
            let l:text = substitute(l:text, '\n$', '', '')
        endif

        let l:lines = split(l:text, "\n", 1)
        call s:SetText(l:start_row, l:start_col, l:end_row, l:end_col, l:lines)

        if l:moves
            let l:last_row = l:start_row + len(l:lines) - 1
            let l:last_col = (len(l:lines) == 1 ? l:start_col : 0) + len(l:lines[-1])

            if l:end_row == l:row
                let [l:row, l:col] = [l:last_row, l:last_col + (l:col - l:end_col)]
            else
                let l:row += l:last_row - l:end_row
            endif
        endif
    endfor

    call cursor(l:row + 1, l:col + 1)
endfunction

" Maps the typing keys of the current buffer (buffer-local Insert-mode maps).
function! macmd#typing#Attach() abort
    if !get(b:, 'macmd_typing', 1)
        return
    endif

    let b:macmd_typing_attached = 1
    inoremap <buffer><silent><expr> <CR> macmd#typing#EnterKeys()
    inoremap <buffer><silent><expr> <BS> macmd#typing#BackspaceKeys()

    let l:keys = {}

    for l:ch in keys(s:closing) + keys(s:closers) + s:default_triggers
        let l:keys[l:ch] = 1
    endfor

    for l:ch in keys(l:keys)
        let l:lhs = l:ch is# '|' ? '<Bar>' : l:ch
        execute 'inoremap <buffer><silent> ' . l:lhs
        \   . ' <Cmd>call macmd#typing#Type(' . char2nr(l:ch) . ')<CR>'
    endfor

    augroup macmd_typing_buffer
        autocmd! * <buffer>
        autocmd InsertCharPre <buffer> call macmd#typing#CharPre()
        autocmd InsertLeave <buffer> call macmd#typing#Disarm()
    augroup END

    let l:undo = 'sil! iunmap <buffer> <CR>|sil! iunmap <buffer> <BS>'

    for l:ch in keys(l:keys)
        let l:undo .= '|sil! iunmap <buffer> ' . (l:ch is# '|' ? '<Bar>' : l:ch)
    endfor

    let l:undo .= '|exe "au! macmd_typing_buffer * <buffer>"|unlet! b:macmd_typing_attached'
    let b:undo_ftplugin = get(b:, 'undo_ftplugin', '') . (empty(get(b:, 'undo_ftplugin', '')) ? '' : '|') . l:undo
endfunction

let &cpoptions = s:save_cpo
unlet s:save_cpo
