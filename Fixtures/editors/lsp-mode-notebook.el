;;; lsp-mode-notebook.el --- MacMD's features through lsp-mode, in Emacs batch mode  -*- lexical-binding: t; -*-

;; Run by Tests/EditorTests/EmacsTests.swift: macmd.el registers `macmd lsp' with lsp-mode (a
;; client of priority 1, utf-32 positions), and open-questions.md (MACMD_TEST_NOTE, a note with
;; deliberate problems) of a notebook copy is opened in `markdown-mode' with the `lsp' hook and
;; lsp-mode's settings of docs/editors.md. `macmd-test-notebook' (macmd-test.el) then walks the
;; features as a writer uses them: flymake's diagnostics, C-M-i after `[[Soil', the hover of a
;; wiki-link (`lsp-describe-thing-at-point'), M-. on `[[soil-tests]]', `lsp-rename' of a heading
;; other notes link to, the Create note code action on `[[greenhouse]]' and `macmd-preview'.
;; The JSON report holds what the writer would see, and which server lsp-mode chose.

(load (expand-file-name "macmd-test" (file-name-directory load-file-name)) nil t)

(setq macmd-test-client 'lsp-mode)

(defun macmd-test-run ()
  "The steps; errors are reported by the caller."
  (macmd-test-notebook)
  ;; `macmd-preview' through lsp-mode: the page is written and opened at the heading above point
  ;; (the page file; the served pages are preview-server.el's).
  (setq macmd-preview-server nil)
  (let ((opened '()))
    (setq browse-url-browser-function (lambda (url &rest _) (push url opened)))
    (goto-char (point-min))
    (search-forward "Things we have")
    (macmd-preview)
    (unless (macmd-test-wait (lambda () opened) 30)
      (error "macmd-preview opened no page within 30 s"))
    (macmd-test-put 'previewOpened (car opened))
    (macmd-test-put 'previewPage macmd--preview-file)
    (macmd-test-put 'previewWritten (if (file-exists-p macmd--preview-file) t :json-false)))
  ;; The code lens of `## pH readings' in soil-tests.md: resolved to its count, and run, it lists
  ;; the two links to the heading with xref.
  (find-file (expand-file-name "soil-tests.md" (file-name-directory (macmd-test-env "MACMD_TEST_NOTE"))))
  (markdown-mode)
  (unless (macmd-test-wait (lambda () (bound-and-true-p lsp-mode)) 30)
    (error "lsp-mode did not manage soil-tests.md within 30 s"))
  (goto-char (point-min))
  (re-search-forward "^## pH readings")
  (let* ((line (1- (line-number-at-pos)))
         (lenses (lsp-request "textDocument/codeLens" (list :textDocument (lsp--text-document-identifier))))
         (lens (seq-find (lambda (lens) (= (lsp:position-line (lsp:range-start (lsp:code-lens-range lens))) line)) lenses))
         (resolved (and lens (lsp-request "codeLens/resolve" lens)))
         (command (and resolved (lsp:code-lens-command? resolved))))
    (unless command (error "no code lens on `## pH readings'"))
    (macmd-test-put 'lensTitle (lsp:command-title command))
    (lsp--execute-command command)
    (macmd-test-put 'lensPlaces
                    (if (get-buffer "*xref*")
                        (with-current-buffer "*xref*" (substring-no-properties (buffer-string)))
                      :json-false)))
  (let ((workspace (macmd--lsp-workspace)))
    (macmd-test-put 'positionEncoding
                    (plist-get (macmd--plist (lsp--workspace-server-capabilities workspace))
                               :positionEncoding))
    (macmd-test-put 'workspaces (vconcat (mapcar (lambda (w) (symbol-name (lsp--client-server-id
                                                                            (lsp--workspace-client w))))
                                                 (lsp-workspaces))))
    (macmd-test-put 'root (lsp--workspace-root workspace))
    (lsp-workspace-shutdown workspace)))

(macmd-test-finish #'macmd-test-run)
