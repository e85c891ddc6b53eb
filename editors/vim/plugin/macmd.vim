" MacMD for Vim with ALE: commands and the FileType hook. The server itself is ALE's `macmd`
" linter (ale_linters/markdown/macmd.vim); see :help macmd-vim.
"
" Invariants: nothing here starts anything; the FileType autocmd attaches a Markdown buffer
" (omnifunc, typing keys, the server through ALE) and the commands act on the current buffer.

if exists('g:loaded_macmd') || &compatible || v:version < 900
    finish
endif

let g:loaded_macmd = 1

command! -nargs=? -complete=customlist,macmd#ThemeNames MacMDPreview call macmd#Preview(<q-args>)
command! -bang MacMDCreateNote call macmd#CreateNote(<bang>0)
command! -range=% MacMDFormat call macmd#Format(<line1>, <line2>, <range> > 0)

augroup macmd
    autocmd!
    autocmd FileType markdown call macmd#Attach()
augroup END
