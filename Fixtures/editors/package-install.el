;;; package-install.el --- package-install-file on macmd.el, in Emacs batch mode  -*- lexical-binding: t; -*-

;; Run by Tests/EditorTests/EmacsTests.swift: reads macmd.el's package headers with
;; `package-buffer-info', installs it with `package-install-file' into a fresh
;; `package-user-dir' (its dependencies come from Debian's elpa folder, or with Emacs), then
;; activates the package and loads it as a user's init file would; then eglot and lsp-mode load
;; (when installed) and find MacMD registered. No network: package.el must find every dependency
;; installed.

(load (expand-file-name "macmd-test" (file-name-directory load-file-name)) nil t)

(defun macmd-test-run ()
  "The steps; errors are reported by the caller."
  (let ((file (expand-file-name "macmd.el" (macmd-test-env "MACMD_TEST_PLUGIN"))))
    (setq package-user-dir (macmd-test-env "MACMD_TEST_PACKAGES")
          package-archives nil
          package-directory-list '("/usr/share/emacs/site-lisp/elpa"))
    (package-initialize)
    (let ((info (with-temp-buffer
                  (insert-file-contents file)
                  (package-buffer-info))))
      (macmd-test-put 'name (symbol-name (package-desc-name info)))
      (macmd-test-put 'version (package-version-join (package-desc-version info)))
      (macmd-test-put 'requires (vconcat (mapcar (lambda (r) (symbol-name (car r)))
                                                 (package-desc-reqs info)))))
    (package-install-file file)
    (macmd-test-put 'installed (if (package-installed-p 'macmd) t :json-false))
    (macmd-test-put 'autoloaded (if (autoloadp (symbol-function 'macmd-preview)) t :json-false))
    (macmd-test-put 'mentionsAutoloaded (if (autoloadp (symbol-function 'macmd-unlinked-mentions)) t :json-false))
    (macmd-test-put 'searchAutoloaded (if (autoloadp (symbol-function 'macmd-search)) t :json-false))
    (require 'macmd)
    (macmd-test-put 'loaded (if (and (featurep 'macmd) (fboundp 'macmd-project-find)) t :json-false))
    ;; Neither client is loaded by macmd.el; each finds MacMD registered once it loads.
    (macmd-test-put 'clientsLoadedByMacmd
                    (vconcat (seq-filter #'featurep '(eglot lsp-mode))))
    (when (require 'eglot nil t)
      (macmd-test-put 'eglotRegistered
                      (if (seq-every-p (lambda (mode)
                                         (let ((found (eglot--lookup-mode mode)))
                                           (and (equal (nth 1 found) "markdown")
                                                (eq (nth 2 found) 'macmd--eglot-contact))))
                                       '(markdown-mode gfm-mode))
                          t :json-false)))
    (when (require 'lsp-mode nil t)
      (macmd-test-put 'lspModeRegistered
                      (if (gethash 'macmd lsp-clients) t :json-false)))))

(macmd-test-finish #'macmd-test-run)
