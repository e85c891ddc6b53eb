;;; macmd.el --- MacMD language server for Markdown notebooks, through eglot -*- lexical-binding: t; -*-

;; Copyright (c) MacMD contributors. MIT License.
;; Package-Requires: ((emacs "27.1") (eglot "1.12") (jsonrpc "1.0.16"))
;; Keywords: languages, markdown, lsp

;;; Commentary:

;; Registers `macmd lsp' with eglot for Markdown buffers and adds `macmd-preview', which asks the
;; server for `macmd/preview' (the buffer as it is now, unsaved edits included), writes the full
;; HTML page to a temporary file, shows it with `browse-url-of-file' and re-renders it on save.
;;
;;   (add-to-list 'load-path "/path/to/macmd/editors/emacs")
;;   (require 'macmd)
;;   (add-hook 'markdown-mode-hook #'eglot-ensure)
;;
;; Eglot is built into Emacs 29 and later; on Emacs 27 and 28 install it from GNU ELPA.
;;
;; Invariants: the preview only talks to the eglot server of the current buffer; each buffer has
;; one preview file, and the browser is opened once per `macmd-preview', not on every save.

;;; Code:

(require 'eglot)
(require 'jsonrpc)
(require 'browse-url)
(require 'subr-x)
(require 'seq)
(require 'project)

(defgroup macmd nil
  "MacMD, the Markdown notebook language server."
  :group 'tools
  :prefix "macmd-")

(defcustom macmd-preview-theme nil
  "Theme of `macmd-preview' pages; nil lets the server choose (default \"light\")."
  :type '(choice (const :tag "Server default" nil)
                 (const "light") (const "dark") (const "basic") (const "grass")
                 (const "homebrew") (const "man-page") (const "novel") (const "ocean")
                 (const "pro") (const "red-sands") (const "silver-aerogel")
                 (const "solid-colors")))

(defcustom macmd-preview-refresh-seconds 2
  "The preview page reloads itself every this many seconds, so a save shows up.
Zero writes the page as the server made it; then reload the browser by hand."
  :type 'integer)

(defconst macmd-preview-themes
  '("light" "dark" "basic" "grass" "homebrew" "man-page" "novel" "ocean" "pro"
    "red-sands" "silver-aerogel" "solid-colors")
  "The themes `macmd/preview' accepts.")

(defconst macmd-root-markers '(".macmd.json" ".obsidian" ".git" ".marksman.toml" ".moxide.toml")
  "What marks a notebook's root: MacMD's settings, an Obsidian vault, a git repository,
marksman's and markdown-oxide's settings.")

(defun macmd-project-find (dir)
  "The notebook around DIR for a Markdown buffer: the nearest folder upwards holding one of
`macmd-root-markers' (so a vault inside a git repository is its own notebook), as
`(macmd . ROOT)'; nil for other buffers, or where no folder has a marker."
  (when (derived-mode-p 'markdown-mode 'gfm-mode 'markdown-ts-mode)
    (when-let ((root (locate-dominating-file
                      dir (lambda (folder)
                            (seq-some (lambda (marker) (file-exists-p (expand-file-name marker folder)))
                                      macmd-root-markers)))))
      (cons 'macmd (expand-file-name root)))))

(cl-defmethod project-root ((project (head macmd)))
  (cdr project))

;; Before the version-control lookup: the nearest marker wins.
(add-hook 'project-find-functions #'macmd-project-find -90)

;; `macmd lsp' for Markdown buffers; later entries in the list lose to earlier ones.
(add-to-list 'eglot-server-programs '((gfm-mode markdown-ts-mode) . ("macmd" "lsp")))
(add-to-list 'eglot-server-programs '(markdown-mode . ("macmd" "lsp")))

(defvar-local macmd--preview-file nil
  "The temporary HTML file of this buffer's preview, once `macmd-preview' has run.")

(defvar-local macmd--preview-theme nil
  "The theme `macmd-preview' was last asked for in this buffer.")

(defun macmd--server ()
  "The eglot server of the current buffer, or a user error saying how to start one."
  (or (eglot-current-server)
      (user-error "MacMD: no language server in this buffer; run M-x eglot (macmd lsp)")))

(defun macmd--document-uri ()
  "The URI eglot uses for the current buffer's document."
  (cond ((fboundp 'eglot--TextDocumentIdentifier)
         (plist-get (eglot--TextDocumentIdentifier) :uri))
        ((fboundp 'eglot-path-to-uri) (eglot-path-to-uri (buffer-file-name)))
        (t (concat "file://" (expand-file-name (buffer-file-name))))))

(defun macmd--with-refresh (html)
  "HTML that reloads itself after `macmd-preview-refresh-seconds', if positive."
  (if (and (integerp macmd-preview-refresh-seconds) (> macmd-preview-refresh-seconds 0))
      (let ((meta (format "<meta http-equiv=\"refresh\" content=\"%d\">"
                          macmd-preview-refresh-seconds)))
        (if (string-match "<head>" html)
            (replace-match (concat "<head>" meta) t t html)
          (concat meta html)))
    html))

(defun macmd--render (open)
  "Renders this buffer's preview into its file; shows it in the browser when OPEN."
  (let* ((server (macmd--server))
         (options (append '(:fullPage t)
                          (when-let ((theme (or macmd--preview-theme macmd-preview-theme)))
                            (list :theme theme))))
         (file macmd--preview-file))
    ;; Eglot sends edits after a short idle time; flush them so the preview shows this buffer.
    (when (fboundp 'eglot--signal-textDocument/didChange)
      (eglot--signal-textDocument/didChange))
    (let* ((result (jsonrpc-request server :macmd/preview
                                    (list :textDocument (list :uri (macmd--document-uri))
                                          :options options)))
           (html (plist-get result :html)))
      (unless (stringp html)
        (error "MacMD: macmd/preview gave no HTML"))
      (let ((coding-system-for-write 'utf-8))
        (write-region (macmd--with-refresh html) nil file nil 'silent))
      (when open
        (browse-url-of-file file))
      (message "MacMD preview: %s" (or (plist-get result :title) file)))))

(defun macmd--after-save ()
  "Re-renders the preview of this buffer after a save."
  (when (and macmd--preview-file (eglot-current-server))
    (condition-case err
        (macmd--render nil)
      (error (message "MacMD preview failed: %s" (error-message-string err))))))

;;;###autoload
(defun macmd-preview (&optional theme)
  "Preview this note in the browser, rendered by MacMD; re-rendered on each save.
With a prefix argument, ask for the THEME."
  (interactive
   (list (when current-prefix-arg
           (completing-read "MacMD theme: " macmd-preview-themes nil t))))
  (when (and theme (not (string-empty-p theme)))
    (setq macmd--preview-theme theme))
  (unless macmd--preview-file
    (setq macmd--preview-file (make-temp-file "macmd-preview-" nil ".html"))
    (add-hook 'after-save-hook #'macmd--after-save nil t)
    (add-hook 'kill-buffer-hook #'macmd--forget-preview nil t))
  (macmd--render t))

(defun macmd--forget-preview ()
  "Deletes this buffer's preview file when the buffer goes away."
  (when (and macmd--preview-file (file-exists-p macmd--preview-file))
    (delete-file macmd--preview-file))
  (setq macmd--preview-file nil))

(provide 'macmd)

;;; macmd.el ends here
