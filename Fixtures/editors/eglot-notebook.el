;;; eglot-notebook.el --- MacMD's features through eglot, in Emacs batch mode  -*- lexical-binding: t; -*-

;; Run by Tests/EditorTests/EmacsTests.swift: macmd.el registers `macmd lsp' with eglot, and
;; open-questions.md (MACMD_TEST_NOTE, a note with deliberate problems) of a notebook copy is
;; opened in `markdown-mode'. `macmd-test-notebook' (macmd-test.el) then walks the features as a
;; writer uses them: flymake's diagnostics, C-M-i after `[[Soil', the hover of a wiki-link, M-.
;; on `[[soil-tests]]', `eglot-rename' of a heading other notes link to, and the Create note code
;; action on `[[greenhouse]]' (a workspace edit that creates a file, which eglot 1.9 cannot do
;; without macmd.el). The JSON report holds what the writer would see.

(load (expand-file-name "macmd-test" (file-name-directory load-file-name)) nil t)

(setq macmd-test-client 'eglot)

(defun macmd-test-run ()
  "The steps; errors are reported by the caller."
  (macmd-test-notebook)
  (macmd-test-put 'capabilityResourceOperations
                  (plist-get (plist-get (plist-get (eglot-client-capabilities (macmd--eglot-server))
                                                   :workspace)
                                        :workspaceEdit)
                             :resourceOperations))
  (eglot-shutdown (macmd--eglot-server)))

(macmd-test-finish #'macmd-test-run)
