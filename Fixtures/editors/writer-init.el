;;; writer-init.el --- a writer's init.el for MacMD, with eglot or lsp-mode  -*- lexical-binding: t; -*-

;; Loaded by the scripts that run Emacs in a terminal (typing/emacs.el, tty-diagnostics.el): sets
;; up the client MACMD_TEST_CLIENT (`emacs-eglot' or `emacs-lsp-mode') as docs/editors.md tells
;; a writer to: editors/emacs (MACMD_TEST_PLUGIN) on the load-path, `(require 'macmd)', the
;; client started from `markdown-mode-hook'. The server is MACMD_TEST_BIN, logging to
;; MACMD_TEST_SERVER_LOG. Signals an error when something is missing.

(require 'package)

(defvar macmd-writer-client (intern (or (getenv "MACMD_TEST_CLIENT") "emacs-eglot"))
  "`emacs-eglot' or `emacs-lsp-mode'.")

(defun macmd-test-getenv (name)
  "The environment variable NAME, which must be set."
  (or (getenv name) (error "%s is not set" name)))

;; Debian's elpa packages in `emacs -Q' (eglot is built in from Emacs 29).
(unless (and (require 'markdown-mode nil t)
             (require (if (eq macmd-writer-client 'emacs-lsp-mode) 'lsp-mode 'eglot) nil t))
  (setq package-directory-list '("/usr/share/emacs/site-lisp/elpa"))
  (package-initialize))

;; What a test's notebook should not get: backups, lock files and auto-saves beside the notes.
(setq make-backup-files nil
      create-lockfiles nil
      auto-save-default nil
      inhibit-startup-screen t)

(let ((bin (macmd-test-getenv "MACMD_TEST_BIN")))
  (push (file-name-directory bin) exec-path)
  (add-to-list 'load-path (macmd-test-getenv "MACMD_TEST_PLUGIN"))
  (require 'macmd)
  (setq macmd-server-command
        (append (list bin "lsp")
                (when (getenv "MACMD_TEST_SERVER_LOG")
                  (list "--log-file" (getenv "MACMD_TEST_SERVER_LOG") "--log-level" "debug")))))

;; C-M-i takes the first of several candidates at once (docs/editors.md), as the suite's
;; <Complete> does in every client.
(setq completion-cycle-threshold t)

(pcase macmd-writer-client
  ('emacs-eglot
   (require 'eglot)
   (add-hook 'markdown-mode-hook #'eglot-ensure))
  ('emacs-lsp-mode
   (require 'lsp-mode)
   (setq lsp-auto-guess-root t                      ; the notebook's root without asking
         lsp-enable-snippet (featurep 'yasnippet)    ; no warning without yasnippet
         lsp-completion-provider :none)              ; no company: no warning about it
   (add-hook 'markdown-mode-hook #'lsp))
  (_ (error "MACMD_TEST_CLIENT is %s, not emacs-eglot or emacs-lsp-mode" macmd-writer-client)))

(defun macmd-test-server-ready-p ()
  "Whether the current buffer's MacMD server is up, with the typing help on."
  (and (bound-and-true-p macmd-typing-mode)
       (pcase macmd-writer-client
         ('emacs-eglot (and (macmd--eglot-server) t))
         ('emacs-lsp-mode
          (let ((workspace (macmd--lsp-workspace)))
            (and workspace (eq (lsp--workspace-status workspace) 'initialized)))))))

(provide 'writer-init)

;;; writer-init.el ends here
