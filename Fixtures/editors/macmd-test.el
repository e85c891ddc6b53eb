;;; macmd-test.el --- what the Emacs batch scripts of Tests/EditorTests share  -*- lexical-binding: t; -*-

;; Each script loads this file, defines `macmd-test-run' and ends with `(macmd-test-finish)':
;; the run's errors go into the JSON report, which is written to $MACMD_TEST_REPORT before
;; Emacs exits.

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

(defun macmd-test-load-plugin ()
  "Loads eglot, markdown-mode and macmd.el, with the built `macmd' first on `exec-path'."
  ;; Debian's elpa-eglot and elpa-markdown-mode (Emacs 28); eglot is built in from Emacs 29.
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
  (require 'macmd))

(defun macmd-test-finish (run)
  "Calls RUN, records its error if any, writes the report and exits."
  (condition-case err
      (funcall run)
    (error (macmd-test-put 'error (error-message-string err))))
  (with-temp-file (macmd-test-env "MACMD_TEST_REPORT")
    (set-buffer-file-coding-system 'utf-8)
    (insert (json-encode macmd-test-report)))
  (kill-emacs 0))
