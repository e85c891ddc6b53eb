" MacMD's language server (`macmd lsp`) as an ALE linter for Markdown.
"
" Settings: g:macmd_executable (or ALE's g:ale_markdown_macmd_executable), g:macmd_settings
" (sent as initializationOptions), g:macmd_log_file and g:macmd_log_level (the server's log).
" The project root is the nearest folder upwards with `.macmd.json`, `.obsidian`, `.git`,
" `.marksman.toml`, `.moxide.toml`, `book.toml` or `mkdocs.yml`, else the note's folder.

call ale#Set('markdown_macmd_executable', '')

function! ale_linters#markdown#macmd#GetExecutable(buffer) abort
    let l:executable = ale#Var(a:buffer, 'markdown_macmd_executable')

    return !empty(l:executable) ? l:executable : get(g:, 'macmd_executable', 'macmd')
endfunction

function! ale_linters#markdown#macmd#GetCommand(buffer) abort
    let l:command = '%e lsp'

    if !empty(get(g:, 'macmd_log_file', ''))
        let l:command .= ' --log-file ' . ale#Escape(g:macmd_log_file)
    endif

    if !empty(get(g:, 'macmd_log_level', ''))
        let l:command .= ' --log-level ' . ale#Escape(g:macmd_log_level)
    endif

    return l:command
endfunction

function! ale_linters#markdown#macmd#GetOptions(buffer) abort
    let l:settings = get(b:, 'macmd_settings', get(g:, 'macmd_settings', {}))

    " An empty settings object, not a list.
    return type(l:settings) is v:t_dict ? l:settings : {}
endfunction

call ale#linter#Define('markdown', {
\   'name': 'macmd',
\   'lsp': 'stdio',
\   'executable': function('ale_linters#markdown#macmd#GetExecutable'),
\   'command': function('ale_linters#markdown#macmd#GetCommand'),
\   'project_root': function('macmd#ProjectRoot'),
\   'language': 'markdown',
\   'initialization_options': function('ale_linters#markdown#macmd#GetOptions'),
\})
