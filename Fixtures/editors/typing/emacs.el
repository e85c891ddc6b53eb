;;; emacs.el --- the typing suite's harness for Emacs, with eglot or lsp-mode  -*- lexical-binding: t; -*-

;; Run in a terminal as
;;   emacs -nw -Q -l Fixtures/editors/typing/emacs.el
;; with MACMD_TEST_CLIENT `emacs-eglot' or `emacs-lsp-mode'. The client is set up as a writer's
;; init.el sets it up (editors/emacs/macmd.el on the load-path, `(require 'macmd)', the client
;; started from `markdown-mode-hook'); the protocol (environment, ready-N, result-N.txt, F12,
;; done, error.txt) is in README.md beside this file.

(require 'json)
(require 'cl-lib)

(defun typing-env (name)
  "The environment variable NAME, which must be set."
  (or (getenv name) (error "%s is not set" name)))

(defvar typing-out (typing-env "MACMD_TEST_OUT"))

(defun typing-write (name text)
  "Writes TEXT (UTF-8, as it is) to the file NAME in MACMD_TEST_OUT, at once: the test reads a
file as soon as it sees it, so it is written beside and renamed."
  (let ((coding-system-for-write 'utf-8-unix)
        (file (expand-file-name name typing-out))
        (temporary (expand-file-name (concat "." name ".tmp") typing-out)))
    (write-region text nil temporary nil 'silent)
    (rename-file temporary file t)))

(defun typing-fail (message)
  "Says why the harness cannot go on, and quits."
  (typing-write "error.txt" message)
  (kill-emacs 1))

(defvar typing-cases nil "The cases: a list of alists (name, text, width).")
(defvar typing-current 0 "The number of the case in the buffer (1-based), 0 before the first.")
(defvar typing-buffer nil "The note's buffer.")

;; A writer's init.el for the client (../writer-init.el), then the cases.
(condition-case err
    (progn
      (load (expand-file-name "../writer-init" (file-name-directory load-file-name)) nil t)
      (setq typing-cases
            (let ((json-object-type 'alist) (json-array-type 'list) (json-key-type 'symbol))
              (with-temp-buffer
                (let ((coding-system-for-read 'utf-8))
                  (insert-file-contents (typing-env "MACMD_TEST_CASES")))
                (json-read)))))
  (error (typing-fail (format "setup: %s" (error-message-string err)))))

(defun typing-set-up ()
  "Puts case `typing-current' in the buffer, point at its $0, and says it is ready."
  (let* ((case (nth (1- typing-current) typing-cases))
         (text (alist-get 'text case))
         (at (or (string-match (regexp-quote "$0") text) (length text))))
    (with-current-buffer typing-buffer
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert (substring text 0 at) (substring text (min (length text) (+ at 2))))
        (goto-char (1+ at))
        (setq fill-column (or (alist-get 'width case) 70))
        (setq buffer-undo-list nil)
        (set-buffer-modified-p nil)))
    (typing-write (format "ready-%d" typing-current) "")))

(defun typing-record ()
  "F12: records the case's buffer, then sets up the next case (or ends)."
  (interactive)
  ;; End what is going on: a prompt (recorded once it is gone), a completion list.
  (when (minibufferp)
    (run-with-timer 0 nil #'typing-record)
    (abort-recursive-edit))
  (delete-other-windows)
  (switch-to-buffer typing-buffer)
  (when (> typing-current 0)
    (typing-write (format "result-%d.txt" typing-current)
                  (with-current-buffer typing-buffer
                    (buffer-substring-no-properties (point-min) (point-max)))))
  (setq typing-current (1+ typing-current))
  (if (> typing-current (length typing-cases))
      (progn
        (typing-write "done" "")
        (with-current-buffer typing-buffer (set-buffer-modified-p nil))
        (kill-emacs 0))
    (typing-set-up)))

(global-set-key (kbd "<f12>") #'typing-record)

(defun typing-ready-p ()
  "Whether the server is up and the typing help is on in the note's buffer."
  (with-current-buffer typing-buffer (macmd-test-server-ready-p)))

(defun typing-start ()
  "Opens the note and waits (at most 30 s) for the server and the typing help."
  (condition-case err
      (progn
        (find-file (typing-env "MACMD_TEST_NOTE"))
        (setq typing-buffer (current-buffer))
        (unless (derived-mode-p 'markdown-mode) (markdown-mode))
        (let ((deadline (+ (float-time) 30)))
          (letrec ((timer (run-with-timer
                           0.1 0.1
                           (lambda ()
                             (cond ((typing-ready-p)
                                    (cancel-timer timer)
                                    (typing-record))
                                   ((> (float-time) deadline)
                                    (cancel-timer timer)
                                    (typing-fail (format "no MacMD server with typing help in %s within 30 s; *Messages*:\n%s"
                                                         macmd-writer-client
                                                         (with-current-buffer "*Messages*" (buffer-string))))))))))
            timer)))
    (error (typing-fail (format "start: %s" (error-message-string err))))))

(add-hook 'emacs-startup-hook #'typing-start)

;;; emacs.el ends here
