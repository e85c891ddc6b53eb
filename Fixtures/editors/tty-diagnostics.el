;;; tty-diagnostics.el --- flymake's diagnostics in a terminal, with eglot or lsp-mode  -*- lexical-binding: t; -*-

;; Run in a terminal (tmux) by Tests/EditorTests/EmacsTests.swift as
;;   emacs -nw -Q -l Fixtures/editors/tty-diagnostics.el
;; with MACMD_TEST_CLIENT (`emacs-eglot' or `emacs-lsp-mode'), MACMD_TEST_BIN, MACMD_TEST_PLUGIN,
;; MACMD_TEST_NOTE (open-questions.md of a notebook copy), MACMD_TEST_OUT and
;; MACMD_TEST_SERVER_LOG. The client is set up as a writer's init.el does (writer-init.el).
;;
;; Once flymake shows the note's diagnostics (the broken `[[greenhouse]]' among them) with point
;; on the first line, the script writes MACMD_TEST_OUT/ready (a JSON report: the diagnostics, and
;; whether the terminal can draw a wavy underline); the test then reads the screen. F12 moves
;; point onto `greenhouse', as a writer would, so that eldoc shows the diagnostic there, and
;; writes MACMD_TEST_OUT/moved. F11 quits. Errors go to MACMD_TEST_OUT/error.txt.

(require 'json)
;; Only definitions: the shared helpers of the batch scripts (`macmd-test-diagnostics').
(load (expand-file-name "macmd-test" (file-name-directory load-file-name)) nil t)

(defvar tty-out (or (getenv "MACMD_TEST_OUT") (kill-emacs 2)))

(defun tty-write (name text)
  "Writes TEXT to the file NAME in MACMD_TEST_OUT at once (beside, then renamed)."
  (let ((coding-system-for-write 'utf-8-unix)
        (temporary (expand-file-name (concat "." name ".tmp") tty-out)))
    (write-region text nil temporary nil 'silent)
    (rename-file temporary (expand-file-name name tty-out) t)))

(defun tty-fail (message)
  "Says why the script cannot go on, and quits."
  (tty-write "error.txt" message)
  (kill-emacs 1))

(condition-case err
    (load (expand-file-name "writer-init" (file-name-directory load-file-name)) nil t)
  (error (tty-fail (format "setup: %s" (error-message-string err)))))

(defun tty-move ()
  "F12: point onto the broken link's `greenhouse', as a writer moves it."
  (interactive)
  (goto-char (point-min))
  (search-forward "[[greenhouse")
  (backward-char 5)
  (run-with-timer 0.1 nil (lambda () (tty-write "moved" ""))))

(global-set-key (kbd "<f12>") #'tty-move)
;; Eldoc runs after the commands that move point, which it is told of.
(with-eval-after-load 'eldoc (eldoc-add-command 'tty-move))
(global-set-key (kbd "<f11>") (lambda () (interactive) (set-buffer-modified-p nil) (kill-emacs 0)))

(defun tty-start ()
  "Opens the note and waits (at most 40 s) for the diagnostic of `[[greenhouse]]'."
  (condition-case err
      (let ((buffer (find-file (macmd-test-getenv "MACMD_TEST_NOTE")))
            (deadline (+ (float-time) 40)))
        (letrec ((timer
                  (run-with-timer
                   0.2 0.2
                   (lambda ()
                     (with-current-buffer buffer
                       (cond
                        ((and (macmd-test-server-ready-p)
                              (seq-some (lambda (d) (string-match-p "greenhouse" (nth 2 d)))
                                        (macmd-test-diagnostics)))
                         (cancel-timer timer)
                         (goto-char (point-min))
                         (redisplay t)
                         (tty-write "ready"
                                    (json-encode
                                     `((client . ,(symbol-name macmd-writer-client))
                                       (waveUnderline
                                        . ,(if (display-supports-face-attributes-p
                                                '(:underline (:style wave)))
                                               t :json-false))
                                       (diagnostics . ,(vconcat (mapcar #'vconcat (macmd-test-diagnostics))))))))
                        ((> (float-time) deadline)
                         (cancel-timer timer)
                         (tty-fail (format "no diagnostic of [[greenhouse]] within 40 s; *Messages*:\n%s"
                                           (with-current-buffer "*Messages*" (buffer-string)))))))))))
          timer))
    (error (tty-fail (format "start: %s" (error-message-string err))))))

(add-hook 'emacs-startup-hook #'tty-start)

;;; tty-diagnostics.el ends here
