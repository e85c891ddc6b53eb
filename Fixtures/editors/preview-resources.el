;;; preview-resources.el --- drives macmd.el's `macmd-preview' in Emacs batch mode  -*- lexical-binding: t; -*-

;; Run by Tests/EditorTests/EmacsTests.swift: eglot starts `macmd lsp' (found on `exec-path')
;; for a note of a notebook, `macmd-preview' runs at three lines, and the JSON report says where
;; the page was written, the URLs the browser was asked to open and the page itself.

(require 'json)
(require 'package)

(defvar macmd-test-report nil "The report, an alist.")

(defun macmd-test-env (name)
  "The environment variable NAME, which must be set."
  (or (getenv name) (error "%s is not set" name)))

(defun macmd-test-put (key value)
  "Sets KEY of the report to VALUE."
  (setq macmd-test-report (cons (cons key value) (assq-delete-all key macmd-test-report))))

(defun macmd-test-wait (predicate seconds)
  "Waits until PREDICATE returns non-nil, at most SECONDS; returns its value."
  (let ((deadline (+ (float-time) seconds))
        (value nil))
    (while (and (not (setq value (funcall predicate))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    value))

(defun macmd-test-run ()
  "The steps; errors are reported by the caller."
  ;; Debian's elpa-eglot and elpa-markdown-mode (Emacs 28); built in from Emacs 29.
  (unless (and (require 'eglot nil t) (require 'markdown-mode nil t))
    (setq package-directory-list '("/usr/share/emacs/site-lisp/elpa"))
    (package-initialize)
    (require 'eglot)
    (require 'markdown-mode))
  (macmd-test-put 'emacs emacs-version)
  (let ((bin (macmd-test-env "MACMD_TEST_BIN")))
    (push (file-name-directory bin) exec-path)
    (setenv "PATH" (concat (file-name-directory bin) path-separator (getenv "PATH"))))
  (add-to-list 'load-path (macmd-test-env "MACMD_TEST_PLUGIN"))
  (require 'macmd)
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
    ;; Each `macmd-preview' opens the page at the heading above point (1-based lines here).
    (dolist (line '(24 1 12))
      (goto-char (point-min))
      (forward-line (1- line))
      (macmd-preview))
    (macmd-test-put 'opened (vconcat (reverse opened)))
    (let ((page macmd--preview-file))
      (macmd-test-put 'pagePath page)
      (macmd-test-put 'page (with-temp-buffer
                              (let ((coding-system-for-read 'utf-8))
                                (insert-file-contents page))
                              (buffer-string))))
    (eglot-shutdown (eglot-current-server))))

(condition-case err
    (macmd-test-run)
  (error (macmd-test-put 'error (error-message-string err))))
(with-temp-file (macmd-test-env "MACMD_TEST_REPORT")
  (set-buffer-file-coding-system 'utf-8)
  (insert (json-encode macmd-test-report)))
(kill-emacs 0)
