;;; macmd-test.el --- what the Emacs batch scripts of Tests/EditorTests share  -*- lexical-binding: t; -*-

;; Each script loads this file, defines `macmd-test-run' and ends with `(macmd-test-finish)':
;; the run's errors go into the JSON report, which is written to $MACMD_TEST_REPORT before
;; Emacs exits. `macmd-test-notebook' is the feature walk of eglot-notebook.el and
;; lsp-mode-notebook.el: the same steps through either client, each with the client's own
;; commands (what a writer's keys run).

(require 'json)
(require 'package)
(require 'cl-lib)
(require 'seq)
(require 'subr-x)

(defvar macmd-test-report nil "The report, an alist.")

(defvar macmd-test-client 'eglot
  "The client the script drives: `eglot' or `lsp-mode'.")

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
  "Loads the client (`macmd-test-client'), markdown-mode and macmd.el, with the built `macmd'
first on `exec-path'."
  ;; Debian's elpa packages (Emacs 28); eglot is built in from Emacs 29.
  (unless (and (require macmd-test-client nil t) (require 'markdown-mode nil t))
    (setq package-directory-list '("/usr/share/emacs/site-lisp/elpa"))
    (package-initialize)
    (require macmd-test-client)
    (require 'markdown-mode))
  (macmd-test-put 'emacs emacs-version)
  (let ((bin (macmd-test-env "MACMD_TEST_BIN")))
    (push (file-name-directory bin) exec-path)
    (setenv "PATH" (concat (file-name-directory bin) path-separator (getenv "PATH"))))
  (add-to-list 'load-path (macmd-test-env "MACMD_TEST_PLUGIN"))
  (require 'macmd)
  (when (eq macmd-test-client 'lsp-mode)
    ;; A writer's lsp-mode settings (docs/editors.md), and a session file of the test's own.
    (setq lsp-session-file (expand-file-name "lsp-session" (macmd-test-env "HOME"))
          lsp-auto-guess-root t
          lsp-enable-snippet nil
          lsp-completion-provider :none
          lsp-keep-workspace-alive nil
          lsp-restart 'ignore)
    (add-hook 'markdown-mode-hook #'lsp)))

(defun macmd-test-server-p ()
  "Whether the current buffer's MacMD server is up."
  (pcase macmd-test-client
    ('eglot (macmd--eglot-server))
    ('lsp-mode (let ((workspace (macmd--lsp-workspace)))
                 (and workspace (eq (lsp--workspace-status workspace) 'initialized))))))

(defun macmd-test-open (file)
  "Visits FILE in `markdown-mode' with its MacMD server (started if need be), as a writer's
hook (`eglot-ensure', `lsp') does."
  (find-file file)
  (unless (derived-mode-p 'markdown-mode) (markdown-mode))
  ;; `eglot-ensure' connects at the next command, which batch Emacs never runs; a server that
  ;; runs manages the project's new buffers by itself.
  (when (and (eq macmd-test-client 'eglot)
             (not (macmd-test-wait #'macmd-test-server-p 1)))
    (apply #'eglot (eglot--guess-contact)))
  (unless (macmd-test-wait #'macmd-test-server-p 30)
    (error "%s did not connect to macmd lsp in %s within 30 s" macmd-test-client (buffer-name))))

(defun macmd-test-diagnostics ()
  "Flymake's diagnostics of the current buffer, as (LINE TYPE TEXT) lists, in buffer order.
Batch Emacs runs no commands, so flymake's deferred start is done here."
  (unless (flymake-running-backends) (flymake-start))
  (sort (mapcar (lambda (diagnostic)
                  (list (line-number-at-pos (flymake-diagnostic-beg diagnostic))
                        (format "%s" (flymake-diagnostic-type diagnostic))
                        (flymake-diagnostic-text diagnostic)))
                (flymake-diagnostics))
        (lambda (a b) (< (car a) (car b)))))

(defun macmd-test-line ()
  "The current line's text."
  (buffer-substring-no-properties (line-beginning-position) (line-end-position)))

(defun macmd-test-notes-containing (root needle)
  "The notes under ROOT (paths from it, sorted) whose text on disk contains NEEDLE."
  (sort (delq nil (mapcar (lambda (file)
                            (with-temp-buffer
                              (let ((coding-system-for-read 'utf-8))
                                (insert-file-contents file))
                              (when (search-forward needle nil t)
                                (file-relative-name file root))))
                          (directory-files-recursively root "\\.md\\'")))
        #'string<))

(defmacro macmd-test-choosing (pattern &rest body)
  "Runs BODY with every `completing-read' and `y-or-n-p' answered as a writer would: the first
candidate matching PATTERN, and yes. The questions asked go into the report's `asked'."
  (declare (indent 1))
  `(cl-letf (((symbol-function 'completing-read)
              (lambda (prompt collection &rest _)
                (let ((candidates (all-completions "" collection)))
                  (macmd-test-put 'asked (vconcat (alist-get 'asked macmd-test-report) (list prompt)))
                  (or (seq-find (lambda (candidate) (string-match-p ,pattern candidate)) candidates)
                      (error "no choice matching %s among %S" ,pattern candidates)))))
             ((symbol-function 'y-or-n-p)
              (lambda (prompt)
                (macmd-test-put 'asked (vconcat (alist-get 'asked macmd-test-report) (list prompt)))
                t))
             ((symbol-function 'yes-or-no-p) (lambda (&rest _) t)))
     ;; eglot pops a menu up unless the last event came from the keyboard.
     (let ((last-nonmenu-event ?\r))
       ,@body)))

(defun macmd-test-hover ()
  "The hover text at point, as the client shows it (eglot's eldoc function, lsp-mode's
`lsp-describe-thing-at-point')."
  (pcase macmd-test-client
    ('eglot
     (let ((text nil))
       (eglot-hover-eldoc-function (lambda (info &rest _) (setq text (or info ""))))
       (macmd-test-wait (lambda () text) 10)
       text))
    ('lsp-mode
     (lsp-describe-thing-at-point)
     (when-let ((buffer (get-buffer "*lsp-help*")))
       (with-current-buffer buffer (buffer-substring-no-properties (point-min) (point-max)))))))

(defun macmd-test-notebook ()
  "The feature walk on open-questions.md (MACMD_TEST_NOTE) of a notebook copy: diagnostics,
completion, hover, definition, rename of a heading, Create note and unlinked mentions."
  (macmd-test-load-plugin)
  (let* ((note (macmd-test-env "MACMD_TEST_NOTE"))
         (root (file-name-directory note)))
    (macmd-test-open note)
    (macmd-test-put 'server "macmd")
    (macmd-test-put 'client (symbol-name (macmd--client)))
    (macmd-test-put 'flymake (and (bound-and-true-p flymake-mode) t))
    (macmd-test-put 'typing (and (bound-and-true-p macmd-typing-mode) t))
    ;; Diagnostics: cross-note problems come once the notebook is indexed: wait for the broken
    ;; wiki-link.
    (unless (macmd-test-wait
             (lambda () (seq-some (lambda (d) (string-match-p "greenhouse" (nth 2 d)))
                                  (macmd-test-diagnostics)))
             30)
      (macmd-test-put 'diagnostics (vconcat (mapcar #'vconcat (macmd-test-diagnostics))))
      (error "flymake showed no diagnostic for [[greenhouse]] within 30 s"))
    (macmd-test-put 'diagnostics (vconcat (mapcar #'vconcat (macmd-test-diagnostics))))

    ;; Completion: `[[Soil' on a new last line and C-M-i (`completion-at-point'): the sole
    ;; candidate is completed and its textEdit written.
    (goto-char (point-max))
    (insert "\nRead [[Soil")
    (macmd-test-put 'completionKey (symbol-name (key-binding (kbd "C-M-i"))))
    (macmd-test-put 'firstCapf (format "%s" (car completion-at-point-functions)))
    (let ((capf (macmd-completion-at-point)))
      (macmd-test-put 'candidates
                      (vconcat (and capf (all-completions (buffer-substring-no-properties
                                                           (nth 0 capf) (nth 1 capf))
                                                          (nth 2 capf))))))
    (completion-at-point)
    (macmd-test-put 'completed (macmd-test-line))

    ;; What a writer's pause does: eglot sends the buffer's changes after an idle time, which
    ;; batch Emacs never has.
    (macmd--flush)
    ;; Hover on a wiki-link: the target's title and first lines.
    (goto-char (point-min))
    (search-forward "[[tomato-var")
    (macmd-test-put 'hover (macmd-test-hover))

    ;; Definition (M-.) of the completed `[[soil-tests]]': the note's title line.
    (goto-char (point-max))
    (search-backward "soil-tests")
    (forward-char 2)
    (let ((from (current-buffer)))
      ;; As M-. runs it: `xref' asks for an identifier unless the command is this one.
      (let ((this-command 'xref-find-definitions))
        (call-interactively #'xref-find-definitions))
      (macmd-test-put 'definition
                      `((file . ,(and buffer-file-name (file-relative-name buffer-file-name root)))
                        (line . ,(line-number-at-pos))
                        (text . ,(macmd-test-line))))
      (switch-to-buffer from))
    (delete-region (line-beginning-position 0) (point-max))   ; the completion's line goes
    (save-buffer)

    ;; Rename (eglot-rename, lsp-rename) of `## Lime calculation' in soil-tests.md, which other
    ;; notes link to: the heading and every link change; saved, the files on disk say so.
    (let ((linking (macmd-test-notes-containing root "soil-tests#Lime calculation")))
      (macmd-test-put 'renameLinking (vconcat linking))
      (macmd-test-open (expand-file-name "soil-tests.md" root))
      (goto-char (point-min))
      (search-forward "## Lime calculation")
      (macmd-test-put 'renameFrom (macmd-test-line))
      (search-backward "Lime")
      (macmd-test-choosing "."
        (pcase macmd-test-client
          ('eglot (eglot-rename "Liming"))
          ('lsp-mode (lsp-rename "Liming"))))
      (macmd-test-put 'renamedHeading (macmd-test-line))
      (save-some-buffers t)
      (macmd-test-put 'renamedOnDisk
                      (vconcat (macmd-test-notes-containing root "soil-tests#Liming")))
      (macmd-test-put 'renamedHeadingOnDisk
                      (vconcat (macmd-test-notes-containing root "\n## Liming\n")))
      (macmd-test-put 'renameLeftover
                      (vconcat (macmd-test-notes-containing root "soil-tests#Lime calculation"))))

    ;; Create note: the code action on the broken `[[greenhouse]]' makes greenhouse.md, with its
    ;; title, and the link is no longer broken.
    (macmd-test-open note)
    (goto-char (point-min))
    (search-forward "[[greenhouse")
    (let ((created (expand-file-name "greenhouse.md" root)))
      (macmd-test-put 'createExistedBefore (if (file-exists-p created) t :json-false))
      (macmd-test-choosing "Create"
        (pcase macmd-test-client
          ('eglot (eglot-code-actions (point) (point) nil t))
          ('lsp-mode (call-interactively #'lsp-execute-code-action))))
      (macmd-test-put 'createExists (if (file-exists-p created) t :json-false))
      (when-let ((buffer (find-buffer-visiting created)))
        (with-current-buffer buffer
          (macmd-test-put 'createdText (buffer-substring-no-properties (point-min) (point-max)))
          (save-buffer)))
      (macmd-test-put 'createdOnDisk
                      (and (file-exists-p created)
                           (with-temp-buffer
                             (let ((coding-system-for-read 'utf-8)) (insert-file-contents created))
                             (buffer-string))))
      (macmd-test-put 'createResolved
                      (if (macmd-test-wait
                           (lambda () (not (seq-some (lambda (d) (string-match-p "greenhouse" (nth 2 d)))
                                                     (macmd-test-diagnostics))))
                           15)
                          t :json-false)))
    (set-buffer-modified-p nil)

    ;; `macmd-unlinked-mentions' on compost.md: the places that name it without a link, in
    ;; xref's list.
    (macmd-test-open (expand-file-name "compost.md" root))
    (when (get-buffer "*xref*") (kill-buffer "*xref*"))
    (macmd-unlinked-mentions)
    (macmd-test-put 'mentions
                    (if (get-buffer "*xref*")
                        (with-current-buffer "*xref*" (substring-no-properties (buffer-string)))
                      :json-false))

    ;; `macmd-search': a phrase's notes, best first, in xref's list with their excerpts; the
    ;; first one visited lands on the match.
    (when (get-buffer "*xref*") (kill-buffer "*xref*"))
    (macmd-search "\"weed seeds\"")
    (macmd-test-put 'search
                    (if (get-buffer "*xref*")
                        (with-current-buffer "*xref*" (substring-no-properties (buffer-string)))
                      :json-false))
    (when (get-buffer "*xref*")
      (with-current-buffer "*xref*"
        (goto-char (point-min))
        (xref-next-line)
        (xref-goto-xref))
      (macmd-test-put 'searchLanded (buffer-substring-no-properties (point) (min (point-max) (+ (point) 10)))))
    (macmd-test-open note)))

(defun macmd-test-finish (run)
  "Calls RUN, records its error if any, writes the report and exits."
  (condition-case err
      (funcall run)
    (error (macmd-test-put 'error (error-message-string err))))
  (with-temp-file (macmd-test-env "MACMD_TEST_REPORT")
    (set-buffer-file-coding-system 'utf-8)
    (insert (json-encode macmd-test-report)))
  (kill-emacs 0))
