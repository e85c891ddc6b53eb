;;; preview-resources.el --- drives macmd.el's `macmd-preview' in Emacs batch mode  -*- lexical-binding: t; -*-

;; Run by Tests/EditorTests/EmacsTests.swift: eglot starts `macmd lsp' (found on `exec-path')
;; for a note of a notebook, `macmd-preview' runs at three lines, and the JSON report says where
;; the page was written, the URLs the browser was asked to open and the page itself.

(load (expand-file-name "macmd-test" (file-name-directory load-file-name)) nil t)

(defun macmd-test-run ()
  "The steps; errors are reported by the caller."
  (macmd-test-load-plugin)
  (macmd-test-put 'cache (macmd--preview-folder))
  (let ((opened '()))
    (setq browse-url-browser-function (lambda (url &rest _) (push url opened)))
    (find-file (macmd-test-env "MACMD_TEST_NOTE"))
    (markdown-mode)
    (apply #'eglot (eglot--guess-contact))
    (unless (macmd-test-wait #'eglot-current-server 30)
      (error "eglot did not connect to macmd lsp within 30 s"))
    (macmd-test-put 'root (project-root (project-current)))
    ;; Until the notebook's first scan has reached soil-tests.md, a wiki-link to it is left as
    ;; written; wait for the scan, as a user's second look would.
    (unless (macmd-test-wait
             (lambda ()
               (let ((result (jsonrpc-request (eglot-current-server) :macmd/preview
                                              (list :textDocument (list :uri (macmd--document-uri))
                                                    :options '(:sourceLines :json-false)))))
                 (string-match-p "href=\"\\.\\./soil-tests\\.md\"" (plist-get result :html))))
             30)
      (error "the wiki-links of the note were not resolved within 30 s"))
    ;; The page files of `macmd-preview-server' nil (the served pages: preview-server.el).
    (setq macmd-preview-server nil)
    ;; Each `macmd-preview' opens the page at the heading above point (1-based lines here).
    ;; The request is asynchronous: `macmd-preview' returns at once and the browser opens when
    ;; the answer has come.
    (dolist (line '(24 1 12))
      (goto-char (point-min))
      (forward-line (1- line))
      (let ((count (length opened)))
        (macmd-preview)
        ;; Returned before the answer: nothing opened yet.
        (when (= line 24) (macmd-test-put 'returnedAtOnce (if (= (length opened) count) t :json-false)))
        (unless (macmd-test-wait (lambda () (> (length opened) count)) 30)
          (error "macmd-preview opened no page at line %d within 30 s" line))))
    (macmd-test-put 'opened (vconcat (reverse opened)))
    (let ((page macmd--preview-file))
      (macmd-test-put 'pagePath page)
      (cl-flet ((text () (with-temp-buffer
                           (let ((coding-system-for-read 'utf-8))
                             (insert-file-contents page))
                           (buffer-string))))
        (macmd-test-put 'page (text))
        ;; The page embeds a section of soil-tests.md: saving that note renders the page again.
        (find-file (expand-file-name "../soil-tests.md" (file-name-directory (macmd-test-env "MACMD_TEST_NOTE"))))
        (markdown-mode)
        (unless (macmd-test-wait #'eglot-current-server 30)
          (error "eglot did not manage soil-tests.md within 30 s"))
        (goto-char (point-min))
        (re-search-forward "^## pH readings\n")
        (insert "\nChecked again in May.\n")
        (save-buffer)
        (macmd-test-put 'embedRefreshed
                        (if (macmd-test-wait (lambda () (string-match-p "Checked again in May\\." (text))) 30) t :json-false))))
    (eglot-shutdown (eglot-current-server))))

(macmd-test-finish #'macmd-test-run)
