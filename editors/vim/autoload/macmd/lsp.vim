" MacMD for Vim: requests to `macmd lsp` over the connection ALE keeps for the `macmd` linter.
"
" Invariants:
"   * One connection per notebook, ALE's: this file never starts a second server. It finds the
"     `macmd` linter ALE runs for the buffer and sends its own requests on ALE's channel
"     (ale#lsp_linter#StartLSP, ale#lsp#Send), reading the answers through a callback it
"     registers on that connection.
"   * ALE sends `textDocument/didChange` (the full text) only when it lints, never while typing
"     in Insert mode, so every request here sends the buffer's changes first
"     (ale#lsp#NotifyForChanges: a no-op when b:changedtick has not moved).
"   * Positions are UTF-16 code units (ALE announces no `positionEncodings`, so the server uses
"     LSP's default); Vim's columns are bytes. The conversions are here and nowhere else.
"   * A synchronous request waits at most its timeout (`:sleep 1m` steps, which let Vim read the
"     channel and keep what is typed meanwhile in the typeahead) and returns {} when late.

let s:save_cpo = &cpoptions
set cpoptions&vim

" Request id -> Funcref(response), for the answers to our requests.
let s:pending = get(s:, 'pending', {})
" Connection id -> the server's capabilities and serverInfo (the `initialize` result), when seen.
let s:capabilities = get(s:, 'capabilities', {})
let s:server_info = get(s:, 'server_info', {})
" Buffer number -> connection id, once the server is ready for that buffer.
let s:connections = get(s:, 'connections', {})

" The `macmd` linter ALE runs for a buffer, or {} (ALE missing, or macmd not among the buffer's
" linters: see g:ale_linters).
function! macmd#lsp#Linter(buffer) abort
    try
        let l:linters = ale#linter#Get(getbufvar(a:buffer, '&filetype'))
    catch
        return {}
    endtry

    for l:linter in l:linters
        if l:linter.name is# 'macmd'
            return l:linter
        endif
    endfor

    return {}
endfunction

" Called by ALE with every message on the connection: responses to our requests, the
" `initialize` result (seen when we asked first or in the same batch), notifications.
function! macmd#lsp#OnMessage(conn_id, message) abort
    if has_key(a:message, 'method')
        return
    endif

    let l:result = get(a:message, 'result', v:null)

    if type(l:result) is v:t_dict && type(get(l:result, 'capabilities', v:null)) is v:t_dict
        let s:capabilities[a:conn_id] = l:result.capabilities
        let s:server_info[a:conn_id] = get(l:result, 'serverInfo', {})
    endif

    if has_key(a:message, 'id') && has_key(s:pending, a:message.id)
        let l:Callback = remove(s:pending, a:message.id)
        call l:Callback(a:message)
    elseif type(get(a:message, 'error', v:null)) is v:t_dict
        " An error answered to one of ALE's requests (a rename the server refuses, with the
        " reason): ALE only says it got no result, so the reason is shown after ALE's message.
        let l:error = a:message.error
        let l:text = get(l:error, 'message', '')

        if type(l:text) is v:t_string && !empty(l:text)
        \&& index([-32800, -32801, -32802], get(l:error, 'code', 0)) < 0
        \&& get(g:, 'macmd_show_errors', 1)
            call timer_start(10, {-> s:ShowError(l:text)})
        endif
    endif
endfunction

function! s:ShowError(text) abort
    echohl WarningMsg
    " One line, cut to the screen's width, so that it never asks to press ENTER.
    echo strpart(substitute('macmd: ' . a:text, '\n', ' ', 'g'), 0, &columns - 2)
    echohl None
endfunction

function! s:OnReady(Then, linter, details) abort
    let l:conn_id = a:details.connection_id
    let l:buffer = a:details.buffer

    call ale#lsp#RegisterCallback(l:conn_id, function('macmd#lsp#OnMessage'))
    let s:connections[l:buffer] = l:conn_id

    if a:Then isnot v:null
        call a:Then(l:conn_id, l:buffer)
    endif
endfunction

" Starts (or joins) the server for a buffer through ALE; Then(conn_id, buffer) runs once it is
" initialized (at once when it is). Returns 0 when ALE cannot start it.
function! macmd#lsp#Start(buffer, ...) abort
    let l:linter = macmd#lsp#Linter(a:buffer)

    if empty(l:linter)
        return 0
    endif

    try
        return ale#lsp_linter#StartLSP(a:buffer, l:linter,
        \   function('s:OnReady', [a:0 ? a:1 : v:null]))
    catch
        return 0
    endtry
endfunction

" The connection of a buffer when the server is initialized for it, else ''.
function! macmd#lsp#Connection(buffer) abort
    return get(s:connections, a:buffer, '')
endfunction

" Whether the server is ready for the buffer (initialized, the document opened).
function! macmd#lsp#IsReady(buffer) abort
    return !empty(macmd#lsp#Connection(a:buffer))
endfunction

" The server's capabilities for a buffer's connection, or {} when not seen (then the callers use
" what MacMD's server is documented to announce).
function! macmd#lsp#Capabilities(buffer) abort
    return get(s:capabilities, macmd#lsp#Connection(a:buffer), {})
endfunction

" The server's `serverInfo` ({name, version}) for a buffer's connection, or {} when not seen.
function! macmd#lsp#ServerInfo(buffer) abort
    return get(s:server_info, macmd#lsp#Connection(a:buffer), {})
endfunction

function! s:Send(conn_id, buffer, method, Params, Callback) abort
    " The server must read the text the request is about.
    call ale#lsp#NotifyForChanges(a:conn_id, a:buffer)
    let l:params = type(a:Params) is v:t_func ? a:Params(a:buffer) : a:Params
    let l:id = ale#lsp#Send(a:conn_id, [0, a:method, l:params])

    if l:id > 0
        let s:pending[l:id] = a:Callback
    endif

    return l:id
endfunction

function! s:SendWhenReady(method, Params, Callback, conn_id, buffer) abort
    call s:Send(a:conn_id, a:buffer, a:method, a:Params, a:Callback)
endfunction

" Sends a request for a buffer; Callback(response) gets the whole JSON-RPC response
" ({'id', 'result'} or {'id', 'error'}). Params may be a Funcref(buffer) evaluated when sent.
" Returns 1 when it was sent or will be once the server is up, 0 when there is no server.
function! macmd#lsp#Request(buffer, method, Params, Callback) abort
    let l:conn_id = macmd#lsp#Connection(a:buffer)

    if !empty(l:conn_id)
        try
            if s:Send(l:conn_id, a:buffer, a:method, a:Params, a:Callback) > 0
                return 1
            endif
        catch
        endtry

        " The connection went away (:ALEStopAllLSPs, :ALEReset): start again.
        call remove(s:connections, a:buffer)
    endif

    return macmd#lsp#Start(a:buffer, function('s:SendWhenReady', [a:method, a:Params, a:Callback]))
endfunction

" Sends a request and waits for its response, at most timeout_ms; returns the response or {}.
function! macmd#lsp#RequestSync(buffer, method, Params, timeout_ms) abort
    let l:box = {}

    if !macmd#lsp#Request(a:buffer, a:method, a:Params, {response -> extend(l:box, {'response': response})})
        return {}
    endif

    let l:start = reltime()

    " :sleep lets Vim read the channel and run ALE's callbacks; keys typed meanwhile wait in the
    " typeahead.
    while !has_key(l:box, 'response') && reltimefloat(reltime(l:start)) * 1000 < a:timeout_ms
        sleep 1m
    endwhile

    return get(l:box, 'response', {})
endfunction

" The result of a synchronous request, or v:null when it failed or came late.
function! macmd#lsp#ResultSync(buffer, method, Params, timeout_ms) abort
    let l:response = macmd#lsp#RequestSync(a:buffer, a:method, a:Params, a:timeout_ms)

    return get(l:response, 'result', v:null)
endfunction

" The `file:` URI of a buffer, as ALE sends it in didOpen.
function! macmd#lsp#URI(buffer) abort
    return ale#util#ToURI(expand('#' . a:buffer . ':p'))
endfunction

" The number of UTF-16 code units in a string.
function! macmd#lsp#UTF16Length(text) abort
    " Characters, plus one for each outside the Basic Multilingual Plane (4 bytes in UTF-8).
    return strchars(a:text) + len(substitute(a:text, '[^\U00010000-\U0010FFFF]', '', 'g')) / 4
endfunction

" The LSP `character` (UTF-16) of a 0-based byte index into a line.
function! macmd#lsp#Character(line, byte) abort
    return macmd#lsp#UTF16Length(strpart(a:line, 0, a:byte))
endfunction

" The 0-based byte index of an LSP `character` (UTF-16) in a line (the line's length past it).
function! macmd#lsp#ByteIndex(line, character) abort
    let l:units = 0
    let l:index = 0

    while l:units < a:character
        let l:nr = strgetchar(a:line, l:index)

        if l:nr < 0
            break
        endif

        let l:units += l:nr > 0xFFFF ? 2 : 1
        let l:index += 1
    endwhile

    let l:byte = byteidxcomp(a:line, l:index)

    return l:byte < 0 ? len(a:line) : l:byte
endfunction

" The LSP position of the cursor in the current window.
function! macmd#lsp#CursorPosition() abort
    let [l:lnum, l:col] = getcurpos()[1:2]

    return {'line': l:lnum - 1, 'character': macmd#lsp#Character(getline(l:lnum), l:col - 1)}
endfunction

" TextDocumentPositionParams for the cursor in the current buffer.
function! macmd#lsp#CursorParams() abort
    return {
    \   'textDocument': {'uri': macmd#lsp#URI(bufnr(''))},
    \   'position': macmd#lsp#CursorPosition(),
    \}
endfunction

let &cpoptions = s:save_cpo
unlet s:save_cpo
