;;; preview-server.el --- `macmd-preview' served from Emacs while a browser reads it  -*- lexical-binding: t; -*-

;; Run by Tests/EditorTests/EmacsTests.swift in `emacs --batch' with MACMD_TEST_CLIENT (eglot or
;; lsp-mode): the note MACMD_TEST_NOTE is opened, a line is added to it without a save, and
;; `macmd-preview' (`macmd-preview-server', the default) runs with point under its second
;; heading. The URL it opens is written to MACMD_TEST_OUT/url; Emacs then serves the pages until
;; MACMD_TEST_OUT/quit appears, and the test browses them in headless Chromium meanwhile.

(load (expand-file-name "macmd-test" (file-name-directory load-file-name)) nil t)

(setq macmd-test-client (if (equal (getenv "MACMD_TEST_CLIENT") "emacs-lsp-mode") 'lsp-mode 'eglot))

(defun macmd-test-run ()
  "The steps; errors are reported by the caller."
  (macmd-test-load-plugin)
  (macmd-test-open (macmd-test-env "MACMD_TEST_NOTE"))
  (let ((opened '())
        (out (macmd-test-env "MACMD_TEST_OUT")))
    (setq browse-url-browser-function (lambda (url &rest _) (push url opened)))
    (goto-char (point-max))
    (insert "\nWords typed and not saved.\n")
    (goto-char (point-min))
    (forward-line (1- (string-to-number (macmd-test-env "MACMD_TEST_LINE"))))
    (macmd-preview)
    (unless (macmd-test-wait (lambda () opened) 30)
      (error "macmd-preview opened no page within 30 s"))
    (macmd-test-put 'opened (car opened))
    (with-temp-file (expand-file-name "url.part" out) (insert (car opened)))
    (rename-file (expand-file-name "url.part" out) (expand-file-name "url" out) t)
    (unless (macmd-test-wait (lambda () (file-exists-p (expand-file-name "quit" out))) 90)
      (error "the test never said it was done"))
    (set-buffer-modified-p nil)))

(macmd-test-finish #'macmd-test-run)
