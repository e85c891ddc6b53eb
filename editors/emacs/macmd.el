;;; macmd.el --- MacMD language server for Markdown notebooks, through eglot -*- lexical-binding: t; -*-

;; Copyright (c) MacMD contributors. MIT License.

;; Author: MacMD contributors
;; Version: 0.1.0
;; Package-Requires: ((emacs "27.1") (eglot "1.9") (markdown-mode "2.5"))
;; URL: https://github.com/macmd/macmd
;; Keywords: languages, markdown, lsp

;;; Commentary:

;; Registers `macmd lsp' with eglot for Markdown buffers and adds `macmd-preview', which asks the
;; server for `macmd/preview' (the buffer as it is now, unsaved edits included), writes the full
;; HTML page to `macmd-preview-folder' (with absolute `file:' URLs, so images and links work from
;; there), shows it with `browse-url' at the heading above point and re-renders it on save.
;;
;;   (add-to-list 'load-path "/path/to/macmd/editors/emacs")
;;   (require 'macmd)
;;   (add-hook 'markdown-mode-hook #'eglot-ensure)
;;
;; or, as a package: M-x package-install-file RET /path/to/macmd/editors/emacs/macmd.el.
;; Eglot is built into Emacs 29 and later; on Emacs 27 and 28 install it from GNU ELPA (or
;; Debian's elpa-eglot); markdown-mode comes from NonGNU ELPA or MELPA (or elpa-markdown-mode).
;; The preview is an asynchronous request: Emacs stays responsive while the server renders.
;;
;; Invariants: the preview only talks to the eglot server of the current buffer; each note has
;; one preview file (its name and a hash of its path, in a folder kept across sessions), and the
;; browser is opened once per `macmd-preview', not on every save.

;;; Code:

(require 'eglot)
(require 'jsonrpc)
(require 'markdown-mode)
(require 'browse-url)
(require 'subr-x)
(require 'seq)
(require 'project)
(require 'url-util)

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

(defcustom macmd-preview-folder nil
  "Where `macmd-preview' writes its pages, one per note, kept across sessions.
Nil is macmd/preview/ in $XDG_CACHE_HOME when that is set, else macmd-preview/ in
`user-emacs-directory'."
  :type '(choice (const :tag "The cache folder" nil) directory))

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

(defvar macmd-preview-written-functions nil
  "Called with the page's file in the note's buffer each time `macmd-preview' wrote it.")

(defvar-local macmd--preview-file nil
  "The HTML file of this buffer's preview, once `macmd-preview' has run.")

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

(defun macmd--preview-folder ()
  "The folder of the preview pages (see `macmd-preview-folder')."
  (file-name-as-directory
   (or macmd-preview-folder
       (let ((cache (getenv "XDG_CACHE_HOME")))
         (if (and cache (not (string-empty-p cache)))
             (expand-file-name "macmd/preview/" cache)
           (locate-user-emacs-file "macmd-preview/"))))))

(defun macmd--preview-page ()
  "The page file of this buffer's note: its name and a hash of its path."
  (let ((file (buffer-file-name)))
    (expand-file-name
     (if file
         (format "%s-%s.html"
                 (replace-regexp-in-string "[^[:alnum:]._-]" "_" (file-name-base file))
                 (substring (secure-hash 'sha256 (expand-file-name file)) 0 12))
       (format "buffer-%s.html" (replace-regexp-in-string "[^[:alnum:]._-]" "_" (buffer-name))))
     (macmd--preview-folder))))

(defun macmd--page-url (file headings line)
  "The `file:' URL of the page FILE at the id of the last of HEADINGS (the result's
`headings') at or above the 0-based LINE."
  (let ((id nil))
    (seq-doseq (heading headings)
      (when (<= (plist-get heading :line) line)
        (setq id (plist-get heading :id))))
    (concat "file://" (url-hexify-string (expand-file-name file) (cons ?/ url-unreserved-chars))
            (if (and id (not (string-empty-p id))) (concat "#" (url-hexify-string id)) ""))))

(defun macmd--render (open)
  "Asks the server for this buffer's preview and returns at once; the answer is written to the
page file, which is shown in the browser when OPEN, at the heading above point."
  (let* ((server (macmd--server))
         (options (append '(:fullPage t :resources "absolute")
                          (when-let ((theme (or macmd--preview-theme macmd-preview-theme)))
                            (list :theme theme))))
         (file macmd--preview-file))
    ;; Eglot sends edits after a short idle time; flush them so the preview shows this buffer.
    (when (fboundp 'eglot--signal-textDocument/didChange)
      (eglot--signal-textDocument/didChange))
    ;; Asynchronous, so Emacs is not blocked while the server renders a long note; the answer
    ;; is written to the page of the buffer that asked, whichever buffer is current by then.
    (let ((buffer (current-buffer))
          (line (1- (line-number-at-pos))))
      (jsonrpc-async-request
       server :macmd/preview
       (list :textDocument (list :uri (macmd--document-uri)) :options options)
       :success-fn (lambda (result) (macmd--write-page buffer file result open line))
       :error-fn (lambda (error)
                   (message "MacMD preview failed: %s" (plist-get error :message)))
       :timeout-fn (lambda () (message "MacMD preview: the server did not answer in time"))))))

(defun macmd--write-page (buffer file result open line)
  "Writes the page FILE of BUFFER's preview from the macmd/preview RESULT; shows it in the
browser when OPEN, at the heading above the 0-based LINE."
  (let ((html (plist-get result :html)))
    (if (not (stringp html))
        (message "MacMD preview: macmd/preview gave no HTML")
      (make-directory (file-name-directory file) t)
      (let ((coding-system-for-write 'utf-8))
        (write-region (macmd--with-refresh html) nil file nil 'silent))
      (when open
        (browse-url (macmd--page-url file (plist-get result :headings) line)))
      (when (buffer-live-p buffer)
        (with-current-buffer buffer
          (run-hook-with-args 'macmd-preview-written-functions file)))
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
    (setq macmd--preview-file (macmd--preview-page))
    (add-hook 'after-save-hook #'macmd--after-save nil t))
  (macmd--render t))

(provide 'macmd)

;;; macmd.el ends here
