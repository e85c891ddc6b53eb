;;; eglot-notebook.el --- eglot and flymake on a note of a notebook, in Emacs batch mode  -*- lexical-binding: t; -*-

;; Run by Tests/EditorTests/EmacsTests.swift: macmd.el registers `macmd lsp' with eglot, a note
;; with deliberate problems is opened in `markdown-mode', flymake shows the server's
;; diagnostics, and `eglot-completion-at-point' completes a wiki-link through eglot. The JSON report
;; holds what a user would see: the diagnostics (line, type, text), the completion candidates and
;; the line after accepting one.

(load (expand-file-name "macmd-test" (file-name-directory load-file-name)) nil t)

(defun macmd-test-diagnostics ()
  "Flymake's diagnostics of the current buffer, as (LINE TYPE TEXT) lists, in buffer order.
Batch Emacs runs no commands, so flymake's deferred start is done here."
  (unless (flymake-running-backends) (flymake-start))
  (sort (mapcar (lambda (diagnostic)
                  (list (line-number-at-pos (flymake-diagnostic-beg diagnostic))
                        (symbol-name (flymake-diagnostic-type diagnostic))
                        (flymake-diagnostic-text diagnostic)))
                (flymake-diagnostics))
        (lambda (a b) (< (car a) (car b)))))

(defun macmd-test-run ()
  "The steps; errors are reported by the caller."
  (macmd-test-load-plugin)
  (find-file (macmd-test-env "MACMD_TEST_NOTE"))
  (markdown-mode)
  ;; What a user's `(add-hook 'markdown-mode-hook #'eglot-ensure)' does, without its deferral
  ;; to the next command (batch Emacs runs none).
  (apply #'eglot (eglot--guess-contact))
  (unless (macmd-test-wait #'eglot-current-server 30)
    (error "eglot did not connect to macmd lsp within 30 s"))
  (macmd-test-put 'server (plist-get (eglot--server-info (eglot-current-server)) :name))
  (macmd-test-put 'flymake (and (bound-and-true-p flymake-mode) t))
  ;; Cross-note problems come once the notebook is indexed: wait for the broken wiki-link.
  (unless (macmd-test-wait
           (lambda () (seq-some (lambda (d) (string-match-p "greenhouse" (nth 2 d)))
                                (macmd-test-diagnostics)))
           30)
    (macmd-test-put 'diagnostics (vconcat (mapcar #'vconcat (macmd-test-diagnostics))))
    (error "flymake showed no diagnostic for [[greenhouse]] within 30 s"))
  (macmd-test-put 'diagnostics (vconcat (mapcar #'vconcat (macmd-test-diagnostics))))
  ;; Completion: type `[[Soil' on a new last line and ask eglot's `completion-at-point'
  ;; function for candidates, as M-TAB (or company, corfu) does, then accept the first one as
  ;; they do: its text replaces the region, and the exit function applies the item's textEdit.
  (goto-char (point-max))
  (insert "\nRead [[Soil")
  (let* ((capf (or (eglot-completion-at-point)
                   (error "eglot-completion-at-point offered nothing after [[Soil")))
         (start (nth 0 capf))
         (end (nth 1 capf))
         (candidates (all-completions (buffer-substring-no-properties start end) (nth 2 capf)))
         (choice (or (car candidates) (error "no completion candidate after [[Soil")))
         (exit (plist-get (nthcdr 3 capf) :exit-function)))
    (macmd-test-put 'candidates (vconcat candidates))
    (delete-region start end)
    (goto-char start)
    (insert choice)
    (when exit (funcall exit choice 'finished)))
  (macmd-test-put 'completed (buffer-substring-no-properties (line-beginning-position) (line-end-position)))
  (set-buffer-modified-p nil)
  (eglot-shutdown (eglot-current-server)))

(macmd-test-finish #'macmd-test-run)
